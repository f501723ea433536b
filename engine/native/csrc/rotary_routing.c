/*
 * Rotary routing recorder: a ggml scheduler eval callback (llama_context_params.cb_eval).
 *
 * The scheduler calls the callback once per graph node and token ("do you want this
 * node?"), thousands of times per token on a 40-layer model. Done in Python that costs
 * about 10% of decode speed, so this small C file answers instead and copies the router's
 * top-k ids (and optionally gate weights and the router's input row) into arrays that
 * Python owns.
 *
 * No ggml headers: only the leading fields of struct ggml_tensor are read, and the two
 * ggml functions needed are passed in as pointers (rotary_routing.h; the engine checks the
 * layout against ggml's when it loads the library).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rotary_routing.h"     /* rr_state, rr_tensor_head: what Python mirrors */

enum { RR_NONE = 0, RR_TOPK = 1, RR_WEIGHTS = 2, RR_HIDDEN = 3 };

/* Length of `prefix` followed by '-' at the start of `name`, or 0. */
static size_t rr_match(const char *name, const char *prefix) {
    size_t n = strlen(prefix);
    if (n == 0 || strncmp(name, prefix, n) != 0 || name[n] != '-') return 0;
    return n + 1;
}

/* "ffn_moe_topk-12" -> RR_TOPK, layer 12; names with any suffix are not ours. */
static int rr_parse(const rr_state *s, const char *name, int *layer) {
    const char *digits;
    int kind, value = 0;
    size_t skip;
    if ((skip = rr_match(name, "ffn_moe_topk"))) kind = RR_TOPK;
    else if ((skip = rr_match(name, "ffn_moe_weights"))) kind = RR_WEIGHTS;
    else if ((skip = rr_match(name, s->hidden_name))) kind = RR_HIDDEN;
    else return RR_NONE;
    digits = name + skip;
    if (*digits == '\0') return RR_NONE;
    for (; *digits; ++digits) {
        if (*digits < '0' || *digits > '9') return RR_NONE;
        value = value * 10 + (*digits - '0');
    }
    *layer = value;
    return kind;
}

/* Copy a [rows, k] view: topk is ne={k, rows}; weights are ne={1, k, rows}. */
static void rr_store(rr_state *s, const void *tensor, int kind, int layer) {
    const rr_tensor_head *t = (const rr_tensor_head *)tensor;
    int weights_shape = t->ne[0] == 1;
    int64_t k = weights_shape ? t->ne[1] : t->ne[0];
    int64_t rows = weights_shape ? t->ne[2] * t->ne[3] : t->ne[1] * t->ne[2] * t->ne[3];
    size_t col_stride = weights_shape ? t->nb[1] : t->nb[0];
    size_t row_stride = weights_shape ? t->nb[2] : t->nb[1];
    if (layer >= s->max_layers || k > s->k_max) return;
    if (rows > s->max_rows) rows = s->max_rows;
    size_t n = s->nbytes(tensor);
    unsigned char *raw = (unsigned char *)malloc(n);
    if (!raw) return;
    s->tensor_get(tensor, raw, 0, n);
    size_t base = (size_t)layer * s->max_rows * s->k_max;
    for (int64_t r = 0; r < rows; ++r) {
        for (int64_t j = 0; j < k; ++j) {
            const unsigned char *src = raw + r * row_stride + j * col_stride;
            size_t dst = base + (size_t)r * s->k_max + (size_t)j;
            if (kind == RR_TOPK) memcpy(&s->ids[dst], src, 4);
            else memcpy(&s->weights[dst], src, 4);
        }
    }
    free(raw);
    if (kind == RR_TOPK) {
        s->rows[layer] = (int32_t)rows;
        s->k[layer] = (int32_t)k;
    }
}

/* The router's input for the batch's last token: one contiguous f32 row of n_embd. */
static void rr_store_hidden(rr_state *s, const void *tensor, int layer) {
    const rr_tensor_head *t = (const rr_tensor_head *)tensor;
    int64_t rows = t->ne[1] * t->ne[2] * t->ne[3];
    if (layer >= s->max_layers || t->ne[0] > s->n_embd_max || t->nb[0] != 4 || rows < 1) return;
    s->tensor_get(tensor, s->hidden + (size_t)layer * s->n_embd_max,
                  (size_t)(rows - 1) * t->nb[1], (size_t)t->ne[0] * 4);
    s->hidden_len[layer] = (int32_t)t->ne[0];
}

RR_EXPORT bool rr_callback(void *tensor, bool ask, void *user_data) {
    rr_state *s = (rr_state *)user_data;
    int layer = -1, kind;
    s->nodes_seen++;
    if (!s->enabled) return !ask;
    kind = rr_parse(s, (const char *)tensor + s->name_offset, &layer);
    if (kind == RR_WEIGHTS && !s->with_weights) kind = RR_NONE;
    if (ask) return kind != RR_NONE;
    if (kind == RR_HIDDEN) rr_store_hidden(s, tensor, layer);
    else if (kind != RR_NONE) rr_store(s, tensor, kind, layer);
    return true;
}

