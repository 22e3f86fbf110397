#!/bin/sh
# package.install: `cmake --install` into PREFIX, then moves the tree elsewhere (relocatable)
# and checks what a vendor relies on: the layout, the sonames, RUNPATHs and the tools' RPATH, and
# that the installed plugin_conformance runs the installed reference plugin and writes JUnit, also
# with another TensorFlow's folder on LD_LIBRARY_PATH.
# Usage: check_install.sh BUILD_DIR WORK_DIR
set -eu
build="$1"; work="$2"
rm -rf "$work"; mkdir -p "$work"
cmake --install "$build" --prefix "$work/installed" >/dev/null
mv "$work/installed" "$work/moved"
prefix="$work/moved"
fail() { echo "check_install: $*" >&2; exit 1; }

private="$prefix/lib/plugin_conformance"
for file in bin/plugin_conformance bin/plugin_bench \
            lib/plugin_conformance/libtensorflow_framework.so.2 \
            lib/plugin_conformance/_pywrap_tensorflow_internal.so \
            lib/plugin_conformance/libreference_plugin.so \
            include/plugin_conformance/tensorflow/c/experimental/stream_executor/stream_executor.h \
            include/plugin_conformance/core/recorder.h \
            lib/cmake/plugin_conformance/plugin_conformanceConfig.cmake \
            lib/cmake/plugin_conformance/plugin_conformanceConfigVersion.cmake \
            lib/cmake/plugin_conformance/PluginConformanceAddTest.cmake \
            lib/pkgconfig/plugin_conformance.pc \
            share/plugin_conformance/scenarios/runtime/memcpy.yaml \
            share/plugin_conformance/checks/load.yaml \
            share/plugin_conformance/schemas/report.schema.json \
            share/plugin_conformance/schemas/junit.xsd \
            share/doc/plugin_conformance/checks.md \
            share/doc/plugin_conformance/ci/github-actions.yml \
            share/doc/plugin_conformance/ci/gitlab-ci.yml; do
  test -e "$prefix/$file" || fail "missing $file"
done
# Nothing of the mock core in the system's library folders: it is private to the package.
test ! -e "$prefix/lib/libtensorflow_framework.so.2" || fail "mock core installed in lib/"

soname() { readelf -d "$1" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p'; }
runpath() { readelf -d "$1" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p'; }
[ "$(soname "$private/libtensorflow_framework.so.2")" = libtensorflow_framework.so.2 ] || fail "framework soname"
[ "$(soname "$private/_pywrap_tensorflow_internal.so")" = _pywrap_tensorflow_internal.so ] || fail "pywrap soname"
[ "$(runpath "$private/_pywrap_tensorflow_internal.so")" = '$ORIGIN' ] || fail "pywrap RUNPATH"
# The tools' DT_RPATH is searched before LD_LIBRARY_PATH (cmake/MockCoreFirst.cmake); a RUNPATH
# beside it would make the loader ignore it.
rpath() { readelf -d "$1" | sed -n 's/.*(RPATH).*\[\(.*\)\]/\1/p'; }
for tool in plugin_conformance plugin_bench; do
  [ "$(rpath "$prefix/bin/$tool")" = '$ORIGIN/../lib/plugin_conformance' ] ||
    fail "$tool RPATH is '$(rpath "$prefix/bin/$tool")'"
  [ -z "$(runpath "$prefix/bin/$tool")" ] || fail "$tool has a RUNPATH: $(runpath "$prefix/bin/$tool")"
done

# Moved and without the build tree's help: the reference plugin found beside the binary.
env -u PLUGIN_CONFORMANCE_REFERENCE_PLUGIN "$prefix/bin/plugin_conformance" \
  "$private/libreference_plugin.so" --tier load --junit "$work/junit.xml" >"$work/run.txt" ||
  fail "installed plugin_conformance on the installed reference plugin: exit $? ($(tail -5 "$work/run.txt"))"
grep -q "<testsuite" "$work/junit.xml" || fail "no JUnit report"
# Another TensorFlow's libtensorflow_framework.so.2 on LD_LIBRARY_PATH changes nothing.
foreign="$build/tests/cli/foreign_tensorflow"
test -e "$foreign/libtensorflow_framework.so.2" || fail "$foreign/libtensorflow_framework.so.2 not built"
LD_LIBRARY_PATH="$foreign" "$prefix/bin/plugin_conformance" "$private/libreference_plugin.so" \
  --tier load >"$work/run_foreign.txt" 2>&1 ||
  fail "with $foreign on LD_LIBRARY_PATH: exit $? ($(tail -3 "$work/run_foreign.txt"))"
"$prefix/bin/plugin_bench" --help >/dev/null || fail "installed plugin_bench does not start"

# pkg-config: relocatable paths into the moved tree.
cflags="$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags plugin_conformance)"
case "$cflags" in *"$prefix/lib/pkgconfig/../../include/plugin_conformance"*) ;; *) fail "pkg-config --cflags: $cflags" ;; esac
# A program linked by pkg-config's flags finds the mock core before LD_LIBRARY_PATH. A sanitized
# package's core needs its sanitizer's runtime first, so the program is built with it too.
sanitize=""
for runtime in asan:address ubsan:undefined tsan:thread; do
  readelf -d "$private/libtensorflow_framework.so.2" | grep -q "lib${runtime%%:*}\." &&
    sanitize="$sanitize -fsanitize=${runtime#*:}"
done
printf '#include "tensorflow/c/tf_status.h"\nint main(void) { TF_Status* s = TF_NewStatus();\n  int ok = TF_GetCode(s) == TF_OK; TF_DeleteStatus(s); return ok ? 0 : 1; }\n' >"$work/status.c"
# shellcheck disable=SC2046,SC2086 # pkg-config's and the sanitizer's flags are separate words
cc $sanitize "$work/status.c" -o "$work/status" $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs plugin_conformance) ||
  fail "a program linked with pkg-config's flags does not build"
LD_LIBRARY_PATH="$foreign" "$work/status" || fail "pkg-config's flags: the program does not find the mock core first"
tool="$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --variable=plugin_conformance plugin_conformance)"
"$tool" --version >/dev/null || fail "pkg-config's plugin_conformance variable: $tool"
echo "check_install: installed, moved, and ran from $prefix"
