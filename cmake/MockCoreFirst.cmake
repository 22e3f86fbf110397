# The tools link the mock core as libtensorflow_framework.so.2, and a vendor's shell often has
# a real TensorFlow's folder on LD_LIBRARY_PATH (to run the plugin's own tests). A RUNPATH is
# searched after LD_LIBRARY_PATH, so the tool then started on the real library: it ran until
# its first call into the conformance core and died with "symbol lookup error", having
# preloaded TensorFlow's own _pywrap_tensorflow_internal.so beside it. An old-style DT_RPATH
# is searched before LD_LIBRARY_PATH, in the build tree and where the package is installed.
include_guard(GLOBAL)

function(find_mock_core_before_library_path target)
  target_link_options(${target} PRIVATE LINKER:--disable-new-dtags)
endfunction()
