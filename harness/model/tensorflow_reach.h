#pragma once
// Defects TensorFlow never reaches, measured. A check that probes a callback, or a pattern of
// arguments, that real TensorFlow 2.21.0 was never seen to use (docs/tensorflow/calls.md, "What
// TensorFlow 2.21 never reaches", with the Python APIs tried) names no consequence a user would
// hit there: its failure, crash or hang is reported as a warning that names the fact, and the
// plugin stays conformant (issue 26: a plugin TensorFlow runs correctly is CONFORMANT, or its
// findings are warnings). Only the `newest` profile is measured, and `tf2.15` for the few facts
// measured on 2.15.1 too; under every other profile the failure stands, since an older
// TensorFlow may well make the call.
#include <optional>
#include <string>
#include <string_view>

#include "model/check_result.h"

namespace conformance {

// details[kUsesBfcDetail] = "1" or "0": SP_Platform.use_bfc_allocator of the plugin the result
// is about, stamped by the child that drove it. Some facts hold only with the BFC allocator
// (TensorFlow then asks allocate for one region per device, never for a tensor's bytes).
inline constexpr std::string_view kUsesBfcDetail = "use_bfc_allocator";
// details[kStreamNumberDetail]: which create_stream of runtime.stream.scale failed (1-based).
inline constexpr std::string_view kStreamNumberDetail = "stream_number";
// Streams TensorFlow 2.21 creates per PluggableDevice (compute, host-to-device,
// device-to-host, device-to-device); it refuses virtual devices for a PluggableDevice, so no
// configuration asks for more.
inline constexpr int kStreamsTensorFlowCreatesPerDevice = 4;

// Why TensorFlow never reaches what this failed result blames ("TensorFlow 2.21 never calls
// host_callback ..."), or nullopt when it may. Reads id, details["failing_call"],
// details["problem"], kUsesBfcDetail and kStreamNumberDetail.
std::optional<std::string> UnreachedByTensorFlow(const CheckResult& result);

// A fail, crash or timeout under a measured profile that TensorFlow never reaches becomes a
// warning: the fact leads the message and is kept in details["downgraded"]. Load-tier results
// and failures carrying a TensorFlow code are TensorFlow's own verdicts and are left alone, as
// is anything else.
void DowngradeUnreached(CheckResult& result, std::string_view profile);

}  // namespace conformance
