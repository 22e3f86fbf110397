// Built as a classic non-PIE executable (ET_EXEC), which can never be dlopened.
int main(void) { return 0; }
