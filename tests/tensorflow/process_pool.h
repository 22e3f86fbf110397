#pragma once
// Runs commands a few at a time (CI has two cores), each with extra environment variables and
// its stdin, stdout and stderr on files.
#include <map>
#include <string>
#include <vector>

namespace tensorflow_agreement {

struct Command {
  std::vector<std::string> argv;
  std::map<std::string, std::string> env;  // added to this process's environment
  std::string stdin_file;                  // empty: /dev/null
  std::string stdout_file;                 // empty: /dev/null
  std::string stderr_file;                 // empty: /dev/null
  int exit_code = -1;                      // filled in: the exit code, or 128 + signal
};

// Runs every command, at most `jobs` at once; throws std::runtime_error if one cannot start.
void RunAll(std::vector<Command>& commands, int jobs);

std::string ReadFile(const std::string& path);

}  // namespace tensorflow_agreement
