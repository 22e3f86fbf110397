#pragma once
// --tensorflow gives the installed TensorFlow the plugin as pip would have installed it, when
// the plugin is laid out for that: Python's TensorFlow loads plugins from
// <site-packages>/tensorflow-plugins, and a plugin whose RUNPATH (its RPATH without one) leads
// from there into <site-packages>/tensorflow ($ORIGIN/../tensorflow/python: how a plugin linking
// _pywrap_tensorflow_internal.so finds it in 2.19 to 2.21, whose library has no SONAME) finds
// nothing from its build folder. Measured on 2.21.0: minimal_pywrap_runpath (tests/load_defects)
// from the build folder is refused (NOT_FOUND, "_pywrap_tensorflow_internal.so: cannot open
// shared object file"), from tensorflow-plugins it loads.
//
// The staged folder is temporary: <tmp>/site-packages/tensorflow links to the package folder
// given to --tensorflow, and <tmp>/site-packages/tensorflow-plugins holds a link to every entry
// of the plugin's own folder (glibc takes $ORIGIN from the path dlopen opened, the link's
// folder, so helpers the plugin finds through $ORIGIN come along). It is removed when this
// object goes.
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace conformance {

// Whether a RUNPATH/RPATH (unexpanded) has an $ORIGIN element that leads, from
// <site-packages>/tensorflow-plugins, to <site-packages>/tensorflow or a folder inside it.
bool LeadsIntoTensorFlowFromPluginsFolder(const std::string& search_path);

class InstalledPluginFolder {
 public:
  // `tensorflow_dir`: the installed package folder (--tensorflow). Stages nothing when the
  // plugin is not laid out for tensorflow-plugins, or already lies in the tensorflow-plugins
  // folder beside `tensorflow_dir`, or the folder cannot be made (the plugin is then given as
  // it is, and TensorFlow's own verdict says what that means).
  InstalledPluginFolder(const std::string& plugin, const std::string& tensorflow_dir);
  ~InstalledPluginFolder();
  InstalledPluginFolder(const InstalledPluginFolder&) = delete;
  InstalledPluginFolder& operator=(const InstalledPluginFolder&) = delete;

  // The path to give TensorFlow.
  const std::string& path() const { return given_; }
  bool staged() const { return !root_.empty(); }
  // `result` with the staged path written back as the plugin's own in every string, so that
  // TensorFlow's messages name the file the user gave.
  nlohmann::json AsGiven(nlohmann::json result) const;

 private:
  std::string plugin_;
  std::string given_;
  std::filesystem::path root_;  // the temporary folder; empty: nothing staged
};

}  // namespace conformance
