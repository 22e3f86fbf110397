# `cpack` (run in the build folder) makes plugin-conformance_<version>_<arch>.deb with the
# DEB generator. Runtime dependencies come from dpkg-shlibdeps (package dpkg-dev at packaging
# time); the libraries of the private folder are ours, so shlibdeps is told where they are.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/Install.cmake)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME plugin-conformance)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "plugin_conformance")
set(CPACK_PACKAGE_CONTACT "plugin_conformance maintainers <plugin-conformance@example.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Conformance suite for TensorFlow PluggableDevice plugins (no TensorFlow needed)")
set(CPACK_PACKAGE_DESCRIPTION
    "plugin_conformance loads a PluggableDevice plugin exactly as TensorFlow does and reports to \
the console, JSON and JUnit; plugin_bench measures it. Includes clean-room TensorFlow C headers, \
a mock TensorFlow core, the reference plugin and a CMake package with plugin_conformance_add_test().")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CMAKE_BINARY_DIR}/lib)
# What a plugin project needs on top to use the CMake package and the mocks.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "cmake (>= 3.25), g++, libgmock-dev, libgtest-dev")
set(CPACK_STRIP_FILES OFF)
include(CPack)
