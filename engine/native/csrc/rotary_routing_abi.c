/* rotary_routing.h's layouts as this compiler sees them (see rotary_abi.h). */
#include "rotary_routing.h"

static const rotary_abi_entry RR_ABI[] = {
    ROTARY_ABI_STRUCT(rr_state),
    ROTARY_ABI_FIELD(rr_state, tensor_get),
    ROTARY_ABI_FIELD(rr_state, nbytes),
    ROTARY_ABI_FIELD(rr_state, name_offset),
    ROTARY_ABI_FIELD(rr_state, enabled),
    ROTARY_ABI_FIELD(rr_state, with_weights),
    ROTARY_ABI_FIELD(rr_state, max_layers),
    ROTARY_ABI_FIELD(rr_state, max_rows),
    ROTARY_ABI_FIELD(rr_state, k_max),
    ROTARY_ABI_FIELD(rr_state, ids),
    ROTARY_ABI_FIELD(rr_state, weights),
    ROTARY_ABI_FIELD(rr_state, rows),
    ROTARY_ABI_FIELD(rr_state, k),
    ROTARY_ABI_FIELD(rr_state, nodes_seen),
    ROTARY_ABI_FIELD(rr_state, hidden_name),
    ROTARY_ABI_FIELD(rr_state, n_embd_max),
    ROTARY_ABI_FIELD(rr_state, hidden),
    ROTARY_ABI_FIELD(rr_state, hidden_len),
    /* compared with GgmlTensor's fields of the same names (itself checked against ggml) */
    ROTARY_ABI_FIELD(rr_tensor_head, type),
    ROTARY_ABI_FIELD(rr_tensor_head, buffer),
    ROTARY_ABI_FIELD(rr_tensor_head, ne),
    ROTARY_ABI_FIELD(rr_tensor_head, nb),
    ROTARY_ABI_END,
};

RR_EXPORT const rotary_abi_entry *rr_abi(void) { return RR_ABI; }
