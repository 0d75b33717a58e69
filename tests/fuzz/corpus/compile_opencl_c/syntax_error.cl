__kernel void broken(__global int *out) {
  out[get_global_id(0)] = undeclared_name +;
}
