/* The library the missing_needed plugin links against and that is never shipped with it: it
 * is built outside the plugin folder and nothing points the dynamic loader there. */
__attribute__((visibility("default"))) int load_defect_unshipped_answer(void);

int load_defect_unshipped_answer(void) { return 42; }
