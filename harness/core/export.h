#pragma once
// Visibility of the conformance::core C++ API (recorder, kernel context, tensors, ...).
// The core is compiled with -fvisibility=hidden so that only the TF_* C API (marked by
// TF_CAPI_EXPORT in the clean-room headers) and what is marked here leave the library:
// the harness, the mocks and the kernel runtime link libtensorflow_framework.so.2 and use
// these types directly. recorder.h spells the same macro; both definitions are identical.
#ifndef CONFORMANCE_CORE_API
#define CONFORMANCE_CORE_API __attribute__((visibility("default")))
#endif
