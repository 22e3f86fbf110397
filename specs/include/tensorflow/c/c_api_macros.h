/* Clean-room TensorFlow C API: shared macros.
 *
 * Written for the plugin conformance suite from the project's ABI specification;
 * the names and values match TensorFlow's tensorflow/c/c_api_macros.h so plugin
 * sources build unchanged against this tree.
 */
#ifndef TENSORFLOW_C_C_API_MACROS_H_
#define TENSORFLOW_C_C_API_MACROS_H_

#include <stddef.h> /* offsetof, used by TF_OFFSET_OF_END */

/* Marks functions that the TensorFlow core library exports. Entry points that a
 * plugin defines itself (SE_InitPlugin, TF_InitKernel, ...) do not carry it. */
#ifndef TF_CAPI_EXPORT
#if defined(SWIG)
#define TF_CAPI_EXPORT
#elif defined(_WIN32)
#ifdef TF_COMPILE_LIBRARY
#define TF_CAPI_EXPORT __declspec(dllexport)
#else
#define TF_CAPI_EXPORT __declspec(dllimport)
#endif
#else
#define TF_CAPI_EXPORT __attribute__((visibility("default")))
#endif
#endif /* TF_CAPI_EXPORT */

/* One-byte boolean used in plugin-facing structs and callbacks. It is a macro,
 * not a typedef, and a build may predefine it. */
#ifndef TF_Bool
#define TF_Bool unsigned char
#endif

/* Offset one past the last byte of MEMBER, without trailing padding. All
 * *_STRUCT_SIZE macros are built from it, so they can be smaller than sizeof.
 * Not usable in #if (it expands to offsetof/sizeof). The sizeof of a pointer MEMBER is meant:
 * it is the member's own size (clang-tidy's bugprone-sizeof-expression suspects a mistake). */
/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
#define TF_OFFSET_OF_END(TYPE, MEMBER) (offsetof(TYPE, MEMBER) + sizeof(((TYPE*)0)->MEMBER))

#endif /* TENSORFLOW_C_C_API_MACROS_H_ */
