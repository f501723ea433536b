/*
 * rotary_routing.c's interface to Python: the recorder state that engine/runtime/routing.py
 * fills (as _RecorderState) and the leading fields of ggml's struct ggml_tensor it reads
 * (engine/runtime/bindings.py's GgmlTensor). rotary_routing_abi.c publishes their layouts
 * (rr_abi), and Python checks its mirrors against them when it loads the library.
 */
#ifndef ROTARY_ROUTING_H
#define ROTARY_ROUTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rotary_abi.h"

#define RR_EXPORT ROTARY_EXPORT

typedef void (*rr_tensor_get_fn)(const void *tensor, void *data, size_t offset, size_t size);
typedef size_t (*rr_nbytes_fn)(const void *tensor);

typedef struct rr_tensor_head { /* the first fields of struct ggml_tensor */
    int32_t type;
    void *buffer;
    int64_t ne[4];
    size_t nb[4];
} rr_tensor_head;

typedef struct rr_state {
    rr_tensor_get_fn tensor_get;
    rr_nbytes_fn nbytes;
    int64_t name_offset;        /* offsetof(struct ggml_tensor, name) */
    int32_t enabled;
    int32_t with_weights;
    int32_t max_layers;
    int32_t max_rows;
    int32_t k_max;
    int32_t *ids;               /* [max_layers][max_rows][k_max] */
    float *weights;             /* [max_layers][max_rows][k_max] */
    int32_t *rows;              /* [max_layers]: rows recorded this batch, 0 = none */
    int32_t *k;                 /* [max_layers] */
    int64_t nodes_seen;         /* for tests: proves the callback runs */
    char hidden_name[32];       /* e.g. "ffn_norm": the router's input; "" = don't capture */
    int32_t n_embd_max;
    float *hidden;              /* [max_layers][n_embd_max]: last row of the batch only */
    int32_t *hidden_len;        /* [max_layers]: floats captured this batch, 0 = none */
} rr_state;

RR_EXPORT bool rr_callback(void *tensor, bool ask, void *user_data);
RR_EXPORT const rotary_abi_entry *rr_abi(void);

#endif
