#pragma once
// Device memory is given back in stream order: a block returns to the arena only once every
// stream of its device has run the work queued before deallocate was called.
//
// Why: TensorFlow without its BFC allocator (SP_Platform.use_bfc_allocator = 0) deallocates a
// kernel's inputs as soon as the kernel is queued, when their last reference drops, and relies
// on the device to keep freed memory intact for work already queued (cudaFree waits for the
// device; TensorFlow's own BFC allocator reuses chunks in stream order). A block freed at once
// could be handed out again, or released to the system, while a queued kernel still reads it.
// On an idle device the block is freed before deallocate returns, so the statistics a caller
// reads right after a synchronised free already count it as free.
#include "stream_executor/device.h"

namespace reference_plugin {

void free_in_stream_order(Device& device, void* address);

}  // namespace reference_plugin
