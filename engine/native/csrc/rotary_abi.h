/*
 * What a helper library says about itself: the sizes of the structs Python fills, the
 * offset and size of each of their fields, and its status codes, as the compiler laid them
 * out. engine/native/abi.py reads the table when it loads the library and compares its
 * ctypes mirrors with it, so a layout changed on one side only fails at once, by name.
 */
#ifndef ROTARY_ABI_H
#define ROTARY_ABI_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define ROTARY_EXPORT __declspec(dllexport)
#else
#define ROTARY_EXPORT __attribute__((visibility("default")))
#endif

/* kind: "struct NAME" (value = sizeof), "field NAME.FIELD" (value = offsetof, size),
 * "code NAME" (value). The table ends with a NULL name. */
typedef struct {
    const char *name;
    int64_t value;
    int64_t size;
} rotary_abi_entry;

#define ROTARY_ABI_STRUCT(T) { "struct " #T, (int64_t)sizeof(T), 0 }
#define ROTARY_ABI_FIELD(T, F) \
    { "field " #T "." #F, (int64_t)offsetof(T, F), (int64_t)sizeof(((T *)0)->F) }
#define ROTARY_ABI_CODE(C) { "code " #C, (int64_t)(C), 0 }
#define ROTARY_ABI_END { NULL, 0, 0 }

#endif
