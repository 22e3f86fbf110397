#pragma once
// The runtime layer in one include: a DeviceSession (a plugin's StreamExecutor brought up as
// TensorFlow does) and checked RAII wrappers over every SP_StreamExecutor callback.
//
//   auto session = DeviceSession::Open(path);            // CallResult<unique_ptr<DeviceSession>>
//   Device* device = *session.value()->GetDevice(0);
//   auto buffer = device->Allocate(4096);                 // CallResult<DeviceBuffer>
//   auto stream = device->CreateStream();                 // CallResult<Stream>
//   CallStatus s = stream->MemcpyHtoD(buffer->All(), host, 4096);
//   s = stream->BlockHostUntilDone();
//   session.value()->findings();                          // statuses/out-params never written
#include "runtime/accounting.h"
#include "runtime/call_error.h"
#include "runtime/device.h"
#include "runtime/device_buffer.h"
#include "runtime/device_session.h"
#include "runtime/event.h"
#include "runtime/findings.h"
#include "runtime/host_buffer.h"
#include "runtime/host_callback_ledger.h"
#include "runtime/memory_readings.h"
#include "runtime/plugin_call.h"
#include "runtime/sentinels.h"
#include "runtime/stream.h"
