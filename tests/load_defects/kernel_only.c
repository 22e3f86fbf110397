/* A plugin with a kernel module only (TF_InitKernel, registering nothing), no device and no
 * graph optimizer: TensorFlow 2.15 and later load it; 2.10 refuses it with NOT_FOUND and aborts,
 * because it needs SE_InitPlugin or TF_InitGraph (load.modules.device_or_graph, --profile
 * tf2.10). */
__attribute__((visibility("default"))) void TF_InitKernel(void);

void TF_InitKernel(void) {}
