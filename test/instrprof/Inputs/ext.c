// ext.c - an indirect-call target built without instrumentation.
int ext_op(int a, int b) { return a ^ b; }
