#pragma once
// Registering one kernel template for every element type of a list: one registration per
// type, each with its TF_KernelBuilder_TypeConstraint, as TensorFlow's own kernels do.
#include <vector>

#include "kernels/dtypes.h"
#include "kernels/op_kernel.h"

namespace reference_plugin::kernels {

// Keeps the first error of a sequence of registrations (the rest still run: one bad
// registration must not hide the others).
inline void keep_first_error(Status& first, const Status& next) {
  if (first.ok() && !next.ok()) first = next;
}

// Kernel<T> for every T, constrained by `type_attr` = T.
template <template <typename> class Kernel, typename... Ts>
Status register_for_types(const char* op, TypeList<Ts...>, const char* type_attr = "T",
                          std::vector<const char*> host_memory_args = {}) {
  Status first;
  (keep_first_error(
       first, register_kernel<Kernel<Ts>>({op, {{type_attr, kDataType<Ts>}}, host_memory_args})),
   ...);
  return first;
}

// Kernel<T, I> for every pair, constrained by attr_t = T and attr_i = I.
template <template <typename, typename> class Kernel, typename... Ts, typename... Is>
Status register_for_type_pairs(const char* op, TypeList<Ts...>, const char* attr_t,
                               TypeList<Is...> second, const char* attr_i,
                               std::vector<const char*> host_memory_args = {}) {
  Status first;
  for_each_type(TypeList<Ts...>{}, [&]<typename T>() {
    (keep_first_error(
         first, register_kernel<Kernel<T, Is>>(
                    {op, {{attr_t, kDataType<T>}, {attr_i, kDataType<Is>}}, host_memory_args})),
     ...);
  });
  (void)second;
  return first;
}

}  // namespace reference_plugin::kernels
