// A plugin importing TensorFlow symbols the fake core lacks (TF_Foo, SE_Baz, TF_Hidden) next to
// one it has (TF_Bar) and a weak one (TF_Weak) that may legitimately be absent.
extern void TF_Foo(void);
extern int TF_Bar(int);
extern int TF_Hidden(void);
extern int SE_Baz;
extern void TF_Weak(void) __attribute__((weak));

__attribute__((visibility("default"))) void SE_InitPlugin(void* params, void* status) {
  (void)params;
  (void)status;
  TF_Foo();
  SE_Baz = TF_Bar(TF_Hidden());
  if (TF_Weak) TF_Weak();
}
