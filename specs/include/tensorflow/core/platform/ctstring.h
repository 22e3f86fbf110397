/* Clean-room TensorFlow C API: the string element of DT_STRING tensors.
 *
 * Written for the plugin conformance suite from the facts of TensorFlow's
 * tensorflow/core/platform/ctstring.h (names, the 24-byte layout, the type tags
 * and how the size is stored); the function bodies are ours. TensorFlow's
 * functions are header-inline, so a plugin reading or writing the elements of a
 * string tensor compiles them into itself: the layout is the ABI.
 *
 * Every element of a DT_STRING tensor is one TF_TString of 24 bytes. The low two
 * bits of its first byte say which of four representations it holds:
 *   small   up to TF_TString_SmallCapacity (22) bytes inline, NUL-terminated; the
 *           first byte is size << 2;
 *   large   size_t size (size << 2 | 1), size_t capacity, char *ptr to malloc'd
 *           memory of capacity + 1 bytes, NUL-terminated;
 *   offset  uint32 size (size << 2 | 2), uint32 offset of the bytes from the
 *           element's own address, uint32 count;
 *   view    size_t size (size << 2 | 3), const char *ptr not owned, and the
 *           owner's reference-counting callbacks (NULL: nobody to tell).
 * Only little-endian targets are described here (every platform TensorFlow's
 * PluggableDevice plugins ship for).
 */
#ifndef TENSORFLOW_CORE_PLATFORM_CTSTRING_H_
#define TENSORFLOW_CORE_PLATFORM_CTSTRING_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "these clean-room headers describe TF_TString on little-endian targets only"
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum TF_TString_Type {
  TF_TSTR_SMALL = 0x00,
  TF_TSTR_LARGE = 0x01,
  TF_TSTR_OFFSET = 0x02,
  TF_TSTR_VIEW = 0x03,
  TF_TSTR_TYPE_MASK = 0x03
} TF_TString_Type;

/* Who keeps a view's bytes alive: ref when a view is copied, unref when one is
 * dropped. */
typedef struct TStringOwnerCApi {
  void (*ref)(struct TStringOwnerCApi* self);
  bool (*unref)(struct TStringOwnerCApi* self);
  void* obj;
} TStringOwnerCApi;

typedef struct TF_TString_Large {
  size_t size;
  size_t cap;
  char* ptr;
} TF_TString_Large;

typedef struct TF_TString_Offset {
  uint32_t size;
  uint32_t offset;
  uint32_t count;
} TF_TString_Offset;

typedef struct TF_TString_View {
  size_t size;
  const char* ptr;
  TStringOwnerCApi* owner_ref;
} TF_TString_View;

typedef struct TF_TString_Raw {
  uint8_t raw[24];
} TF_TString_Raw;

/* 24 bytes less the size byte and the terminating NUL. */
enum { TF_TString_SmallCapacity = 22 };

typedef struct TF_TString_Small {
  uint8_t size;
  char str[TF_TString_SmallCapacity + 1];
} TF_TString_Small;

typedef struct TF_TString {
  union {
    TF_TString_Small smll;
    TF_TString_Large large;
    TF_TString_Offset offset;
    TF_TString_View view;
    TF_TString_Raw raw;
  } u;
} TF_TString;

static inline void TF_TString_Init(TF_TString* str) { memset(str, 0, sizeof(TF_TString)); }

static inline TF_TString_Type TF_TString_GetType(const TF_TString* str) {
  return (TF_TString_Type)(str->u.raw.raw[0] & TF_TSTR_TYPE_MASK);
}

static inline size_t TF_TString_GetSize(const TF_TString* str) {
  switch (TF_TString_GetType(str)) {
    case TF_TSTR_SMALL: return (size_t)(str->u.smll.size >> 2);
    case TF_TSTR_LARGE: return str->u.large.size >> 2;
    case TF_TSTR_OFFSET: return (size_t)(str->u.offset.size >> 2);
    default: return str->u.view.size >> 2;
  }
}

static inline size_t TF_TString_GetCapacity(const TF_TString* str) {
  switch (TF_TString_GetType(str)) {
    case TF_TSTR_SMALL: return TF_TString_SmallCapacity;
    case TF_TSTR_LARGE: return str->u.large.cap;
    default: return 0; /* offsets and views own no memory */
  }
}

static inline const char* TF_TString_GetDataPointer(const TF_TString* str) {
  switch (TF_TString_GetType(str)) {
    case TF_TSTR_SMALL: return str->u.smll.str;
    case TF_TSTR_LARGE: return str->u.large.ptr;
    case TF_TSTR_OFFSET: return (const char*)str + str->u.offset.offset;
    default: return str->u.view.ptr;
  }
}

/* Frees what the element owns (large) or tells a view's owner it is dropped, and
 * leaves the empty small string. */
static inline void TF_TString_Dealloc(TF_TString* str) {
  const TF_TString_Type type = TF_TString_GetType(str);
  if (type == TF_TSTR_LARGE && str->u.large.ptr != NULL) {
    free(str->u.large.ptr);
    TF_TString_Init(str);
  } else if (type == TF_TSTR_VIEW && str->u.view.owner_ref != NULL) {
    TStringOwnerCApi* owner = str->u.view.owner_ref;
    (void)owner->unref(owner);
    TF_TString_Init(str);
  }
}

/* new_capacity rounded so capacity + 1 is a multiple of 16. */
static inline size_t TF_TString_LargeCapacity(size_t new_size) {
  return ((new_size + 1 + 15) & ~(size_t)15) - 1;
}

/* Sets the size to new_size, keeping the first min(old, new) bytes; the bytes
 * after them are unspecified. Returns the writable bytes. An offset or view
 * becomes a string of its own. */
static inline char* TF_TString_ResizeUninitialized(TF_TString* str, size_t new_size) {
  const TF_TString_Type type = TF_TString_GetType(str);
  const size_t old_size = TF_TString_GetSize(str);
  const size_t kept = old_size < new_size ? old_size : new_size;
  const char* old_data = TF_TString_GetDataPointer(str);
  TStringOwnerCApi* owner = type == TF_TSTR_VIEW ? str->u.view.owner_ref : NULL;
  char* data;
  if (new_size <= TF_TString_SmallCapacity) {
    if (type != TF_TSTR_SMALL) {
      char* heap = type == TF_TSTR_LARGE ? str->u.large.ptr : NULL;
      char bytes[TF_TString_SmallCapacity];
      if (kept > 0) memcpy(bytes, old_data, kept);
      TF_TString_Init(str);
      if (kept > 0) memcpy(str->u.smll.str, bytes, kept);
      free(heap);
      if (owner != NULL) (void)owner->unref(owner);
    }
    str->u.smll.size = (uint8_t)(new_size << 2);
    str->u.smll.str[new_size] = '\0';
    return str->u.smll.str;
  }
  if (type == TF_TSTR_LARGE && new_size <= str->u.large.cap) {
    data = str->u.large.ptr;
  } else {
    const size_t cap = TF_TString_LargeCapacity(new_size);
    if (type == TF_TSTR_LARGE) {
      data = (char*)realloc(str->u.large.ptr, cap + 1);
    } else {
      data = (char*)malloc(cap + 1);
      if (data != NULL && kept > 0) memcpy(data, old_data, kept);
      if (owner != NULL) (void)owner->unref(owner);
    }
    str->u.large.cap = cap;
  }
  str->u.large.size = (new_size << 2) | TF_TSTR_LARGE;
  str->u.large.ptr = data;
  data[new_size] = '\0';
  return data;
}

static inline char* TF_TString_Resize(TF_TString* str, size_t new_size, char c) {
  const size_t old_size = TF_TString_GetSize(str);
  char* data = TF_TString_ResizeUninitialized(str, new_size);
  if (new_size > old_size) memset(data + old_size, c, new_size - old_size);
  return data;
}

static inline char* TF_TString_GetMutableDataPointer(TF_TString* str) {
  const TF_TString_Type type = TF_TString_GetType(str);
  if (type == TF_TSTR_OFFSET || type == TF_TSTR_VIEW)
    return TF_TString_ResizeUninitialized(str, TF_TString_GetSize(str));
  return type == TF_TSTR_SMALL ? str->u.smll.str : str->u.large.ptr;
}

/* Room for new_cap bytes without another allocation (a small string becomes large). */
static inline void TF_TString_Reserve(TF_TString* str, size_t new_cap) {
  const TF_TString_Type type = TF_TString_GetType(str);
  const size_t size = TF_TString_GetSize(str);
  size_t cap;
  char* data;
  if (new_cap <= TF_TString_SmallCapacity) return;
  if (type == TF_TSTR_LARGE && new_cap <= str->u.large.cap) return;
  cap = TF_TString_LargeCapacity(new_cap > size ? new_cap : size);
  if (type == TF_TSTR_LARGE) {
    str->u.large.ptr = (char*)realloc(str->u.large.ptr, cap + 1);
    str->u.large.cap = cap;
    return;
  }
  data = (char*)malloc(cap + 1);
  if (data == NULL) return;
  memcpy(data, TF_TString_GetDataPointer(str), size);
  if (type == TF_TSTR_VIEW && str->u.view.owner_ref != NULL)
    (void)str->u.view.owner_ref->unref(str->u.view.owner_ref);
  data[size] = '\0';
  str->u.large.size = (size << 2) | TF_TSTR_LARGE;
  str->u.large.cap = cap;
  str->u.large.ptr = data;
}

static inline void TF_TString_ReserveAmortized(TF_TString* str, size_t new_cap) {
  const size_t cap = TF_TString_GetCapacity(str);
  if (new_cap > cap) TF_TString_Reserve(str, new_cap > 2 * cap ? new_cap : 2 * cap);
}

/* dst owns a copy of the size bytes at src. */
static inline void TF_TString_Copy(TF_TString* dst, const char* src, size_t size) {
  char* data = TF_TString_ResizeUninitialized(dst, size);
  if (size > 0) memmove(data, src, size);
}

/* dst refers to the size bytes at src without owning them. */
static inline void TF_TString_AssignViewWithOwner(TF_TString* dst, const char* src, size_t size,
                                                  TStringOwnerCApi* owner_ref) {
  if (owner_ref != NULL) owner_ref->ref(owner_ref);
  TF_TString_Dealloc(dst);
  dst->u.view.size = (size << 2) | TF_TSTR_VIEW;
  dst->u.view.ptr = src;
  dst->u.view.owner_ref = owner_ref;
}

static inline void TF_TString_AssignView(TF_TString* dst, const char* src, size_t size) {
  TF_TString_AssignViewWithOwner(dst, src, size, NULL);
}

static inline void TF_TString_AppendN(TF_TString* dst, const char* src, size_t size) {
  const size_t old_size = TF_TString_GetSize(dst);
  char* data;
  if (size == 0) return;
  TF_TString_ReserveAmortized(dst, old_size + size);
  data = TF_TString_ResizeUninitialized(dst, old_size + size);
  memcpy(data + old_size, src, size);
}

static inline void TF_TString_Append(TF_TString* dst, const TF_TString* src) {
  TF_TString_AppendN(dst, TF_TString_GetDataPointer(src), TF_TString_GetSize(src));
}

/* dst holds what src holds: the same view (its owner told), else its own copy. */
static inline void TF_TString_Assign(TF_TString* dst, const TF_TString* src) {
  if (dst == src) return;
  switch (TF_TString_GetType(src)) {
    case TF_TSTR_SMALL:
      TF_TString_Dealloc(dst);
      *dst = *src;
      return;
    case TF_TSTR_VIEW:
      TF_TString_AssignViewWithOwner(dst, src->u.view.ptr, TF_TString_GetSize(src),
                                     src->u.view.owner_ref);
      return;
    default:
      TF_TString_Dealloc(dst);
      TF_TString_Copy(dst, TF_TString_GetDataPointer(src), TF_TString_GetSize(src));
      return;
  }
}

/* dst takes src's contents; src is left empty (an offset is copied, as its bytes
 * belong to the tensor). */
static inline void TF_TString_Move(TF_TString* dst, TF_TString* src) {
  if (dst == src) return;
  TF_TString_Dealloc(dst);
  if (TF_TString_GetType(src) == TF_TSTR_OFFSET) {
    TF_TString_Copy(dst, TF_TString_GetDataPointer(src), TF_TString_GetSize(src));
    return;
  }
  *dst = *src;
  TF_TString_Init(src);
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_CORE_PLATFORM_CTSTRING_H_ */
