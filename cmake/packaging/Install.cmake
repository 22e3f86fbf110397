# install() rules for the whole project, one place: the package a vendor's CI uses.
#
# Layout under the GNU install dirs (relocatable: every path the tools use at run time is
# relative to the installed executable, via $ORIGIN/... (the tools' DT_RPATH, searched before
# LD_LIBRARY_PATH: cmake/MockCoreFirst.cmake) and /proc/self/exe):
#   bin/                               plugin_conformance, plugin_bench, plugin_conformance_tf_driver
#   <libdir>/plugin_conformance/       the mock core (libtensorflow_framework.so.2 and
#                                      _pywrap_tensorflow_internal.so), libreference_plugin.so,
#                                      the mocks library. A private folder: a mock TensorFlow
#                                      core in the system's library path would be found by
#                                      every program that asks for TensorFlow's sonames.
#   include/plugin_conformance/        tensorflow/c/... (clean-room headers), core/ (mock core
#                                      C++ API), mocks/
#   <libdir>/cmake/plugin_conformance/ the CMake package (config, version, add_test function)
#   <libdir>/pkgconfig/                plugin_conformance.pc
#   share/plugin_conformance/          the built-in scenarios (also compiled into the tools),
#                                      the check catalogue, the report and scenario schemas,
#                                      the recorded TensorFlow oracle (record/)
#   share/doc/plugin_conformance/      checks.md, scenario language, copy-ready CI pipelines
#
# Included by the top-level CMakeLists.txt after every folder, so it can probe which targets
# exist (a partial build with CONFORMANCE_SUBDIRS installs what it has).
include_guard(GLOBAL)
include(GNUInstallDirs)

set(PC_PRIVATE_LIBDIR ${CMAKE_INSTALL_LIBDIR}/plugin_conformance)
set(PC_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/plugin_conformance)
set(PC_DATADIR ${CMAKE_INSTALL_DATADIR}/plugin_conformance)
set(PC_DOCDIR ${CMAKE_INSTALL_DATADIR}/doc/plugin_conformance)
set(PC_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/plugin_conformance)

# The executables find the private libraries and the reference plugin from their own folder.
file(RELATIVE_PATH pc_bin_to_private /${CMAKE_INSTALL_BINDIR} /${PC_PRIVATE_LIBDIR})
set(pc_reference_from_bin "${pc_bin_to_private}/libreference_plugin.so")

# ---- libraries ---------------------------------------------------------------------------
if(TARGET tf_core)
  # _pywrap_tensorflow_internal.so needs libtensorflow_framework.so.2 from the same folder.
  set_target_properties(tf_core tf_core_pywrap PROPERTIES INSTALL_RPATH "$ORIGIN")
  install(TARGETS tf_core tf_core_pywrap
          LIBRARY DESTINATION ${PC_PRIVATE_LIBDIR} NAMELINK_SKIP COMPONENT runtime)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/harness/core/ DESTINATION ${PC_INCLUDEDIR}/core
          COMPONENT runtime FILES_MATCHING PATTERN "*.h")
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/specs/include/tensorflow DESTINATION ${PC_INCLUDEDIR}
        COMPONENT runtime FILES_MATCHING PATTERN "*.h")
if(TARGET reference_plugin)
  set_target_properties(reference_plugin PROPERTIES INSTALL_RPATH "$ORIGIN")
  install(TARGETS reference_plugin LIBRARY DESTINATION ${PC_PRIVATE_LIBDIR} COMPONENT runtime)
endif()
set(PC_HAVE_MOCKS OFF)
if(TARGET mocks)
  set(PC_HAVE_MOCKS ON)
  install(TARGETS mocks ARCHIVE DESTINATION ${PC_PRIVATE_LIBDIR} COMPONENT runtime)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/mocks/ DESTINATION ${PC_INCLUDEDIR}/mocks
          COMPONENT runtime FILES_MATCHING PATTERN "*.h")
endif()

# ---- executables -------------------------------------------------------------------------
foreach(tool plugin_conformance plugin_bench)
  if(TARGET ${tool})
    set_target_properties(${tool} PROPERTIES INSTALL_RPATH "$ORIGIN/${pc_bin_to_private}")
    install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
  endif()
endforeach()
# plugin_conformance --tensorflow's driver: beside plugin_conformance, without its RPATH (it
# loads the vendor's TensorFlow, never the mock core).
if(TARGET plugin_conformance_tf_driver)
  install(TARGETS plugin_conformance_tf_driver RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
          COMPONENT runtime)
endif()
# Where the installed tools look for the bundled reference plugin (relative to bin/).
foreach(user conformance_kernels plugin_bench)
  if(TARGET ${user})
    target_compile_definitions(${user} PRIVATE
                               REFERENCE_PLUGIN_FROM_EXECUTABLE="${pc_reference_from_bin}")
  endif()
endforeach()

# ---- data --------------------------------------------------------------------------------
file(GLOB pc_runtime_scenarios ${PROJECT_SOURCE_DIR}/conformance/runtime/*.yaml)
file(GLOB pc_kernel_scenarios ${PROJECT_SOURCE_DIR}/conformance/kernels/*.yaml)
install(FILES ${pc_runtime_scenarios} DESTINATION ${PC_DATADIR}/scenarios/runtime COMPONENT runtime)
install(FILES ${pc_kernel_scenarios} DESTINATION ${PC_DATADIR}/scenarios/kernels COMPONENT runtime)
file(GLOB pc_checks ${PROJECT_SOURCE_DIR}/specs/checks/*.yaml)
install(FILES ${pc_checks} DESTINATION ${PC_DATADIR}/checks COMPONENT runtime)
file(GLOB pc_schemas ${PROJECT_SOURCE_DIR}/specs/report/*.json ${PROJECT_SOURCE_DIR}/specs/report/*.xsd
                     ${PROJECT_SOURCE_DIR}/specs/scenarios/*.json)
install(FILES ${pc_schemas} DESTINATION ${PC_DATADIR}/schemas COMPONENT runtime)
# The recorded TensorFlow oracle (2.21.0's record and older releases' overlays), which the kernel
# tier judges registered kernels by without TensorFlow; recorded_oracle.h finds it beside the
# installed executable (without it every generated cell would be "not judged").
install(DIRECTORY ${PROJECT_SOURCE_DIR}/specs/ops/record/ DESTINATION ${PC_DATADIR}/record
        COMPONENT runtime FILES_MATCHING PATTERN "*.json.gz" PATTERN "overlay.json")
file(GLOB pc_scenario_docs ${PROJECT_SOURCE_DIR}/specs/scenarios/*.md)
install(FILES ${pc_scenario_docs} DESTINATION ${PC_DOCDIR}/scenarios COMPONENT runtime)
if(TARGET check_catalogue_docs)
  install(FILES ${CMAKE_BINARY_DIR}/docs/checks.md DESTINATION ${PC_DOCDIR} COMPONENT runtime)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ci DESTINATION ${PC_DOCDIR} COMPONENT runtime)

# ---- CMake package and pkg-config --------------------------------------------------------
include(CMakePackageConfigHelpers)
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/plugin_conformanceConfig.cmake.in
  ${CMAKE_BINARY_DIR}/packaging/plugin_conformanceConfig.cmake
  INSTALL_DESTINATION ${PC_CMAKEDIR}
  PATH_VARS PC_PRIVATE_LIBDIR PC_INCLUDEDIR PC_DATADIR CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(
  ${CMAKE_BINARY_DIR}/packaging/plugin_conformanceConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/packaging/plugin_conformanceConfig.cmake
              ${CMAKE_BINARY_DIR}/packaging/plugin_conformanceConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/PluginConformanceAddTest.cmake
        DESTINATION ${PC_CMAKEDIR} COMPONENT runtime)
file(RELATIVE_PATH pc_pkgconfig_to_prefix /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
configure_file(${CMAKE_CURRENT_LIST_DIR}/plugin_conformance.pc.in
               ${CMAKE_BINARY_DIR}/packaging/plugin_conformance.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/packaging/plugin_conformance.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT runtime)
