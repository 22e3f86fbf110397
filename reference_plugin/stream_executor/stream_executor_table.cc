#include "stream_executor/stream_executor_table.h"

namespace reference_plugin {

Status fill_stream_executor(SP_StreamExecutor* table) {
  if (table == nullptr)
    return invalid_argument("SE_CreateStreamExecutorParams.stream_executor is NULL");
  // The core pre-sets struct_size to the size of its own struct. TensorFlow before 2.10 had
  // a 264-byte table without mem_zero/memset/memset32, and host_callback sat where mem_zero
  // sits now: filling our 288-byte layout into it would write past its end and put the wrong
  // function in its host_callback slot. Refuse instead of corrupting the core's memory.
  // (0 means the caller did not say; TensorFlow always does, so we assume our own layout.)
  if (table->struct_size != 0 && table->struct_size < SP_STREAMEXECUTOR_STRUCT_SIZE) {
    return failed_precondition(
        "The reference plugin was built for the SP_StreamExecutor layout of TensorFlow 2.10 "
        "and later (",
        SP_STREAMEXECUTOR_STRUCT_SIZE,
        " bytes, with mem_zero/memset/memset32 "
        "before host_callback), but the core's struct is ",
        table->struct_size, " bytes. Use a TensorFlow with the newer layout.");
  }
  *table = SP_StreamExecutor{};
  table->struct_size = SP_STREAMEXECUTOR_STRUCT_SIZE;
  install_memory_callbacks(*table);
  install_stream_callbacks(*table);
  install_event_callbacks(*table);
  install_timer_callbacks(*table);
  install_memcpy_callbacks(*table);
  install_memset_callbacks(*table);
  install_host_callback(*table);
  return Status();
}

}  // namespace reference_plugin
