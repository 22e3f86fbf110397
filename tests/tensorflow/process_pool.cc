#include "process_pool.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace tensorflow_agreement {
namespace {

pid_t Start(const Command& command) {
  std::vector<std::string> env_text;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text = *entry;
    if (!command.env.contains(text.substr(0, text.find('=')))) env_text.push_back(text);
  }
  for (const auto& [name, value] : command.env) env_text.push_back(name + "=" + value);
  std::vector<char*> env;
  env.reserve(env_text.size() + 1);
  for (std::string& text : env_text) env.push_back(text.data());
  env.push_back(nullptr);
  std::vector<std::string> argv_text = command.argv;
  std::vector<char*> argv;
  argv.reserve(argv_text.size() + 1);
  for (std::string& arg : argv_text) argv.push_back(arg.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  auto file = [](const std::string& path) { return path.empty() ? "/dev/null" : path.c_str(); };
  posix_spawn_file_actions_addopen(&actions, 0, file(command.stdin_file), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, file(command.stdout_file),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, file(command.stderr_file),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const int error = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) {
    throw std::runtime_error("cannot start " + command.argv[0] + ": " + std::strerror(error));
  }
  return pid;
}

}  // namespace

void RunAll(std::vector<Command>& commands, int jobs) {
  std::vector<std::pair<pid_t, Command*>> running;
  std::size_t next = 0;
  while (next < commands.size() || !running.empty()) {
    while (next < commands.size() && static_cast<int>(running.size()) < jobs) {
      running.emplace_back(Start(commands[next]), &commands[next]);
      ++next;
    }
    int status = 0;
    const pid_t done = waitpid(-1, &status, 0);
    for (auto it = running.begin(); it != running.end(); ++it) {
      if (it->first != done) continue;
      it->second->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      running.erase(it);
      break;
    }
  }
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace tensorflow_agreement
