/*
 * The rotary residency policy's step in C: engine/residency/rotary.py (RotaryPolicy with the
 * base-class flow of engine/residency/base.py) ported operation for operation: per layer, the
 * shadow caches of the candidate rules, the tally that picks the rule to follow, the decayed
 * scores at every half-life, the forecast's context memory, and the real slots.
 *
 * The Python class stays the reference; tests compare every decision, table and frequency
 * bit for bit. So: the same floating-point operations in the same order (never -ffast-math),
 * ties broken as Python's sorted()/min() do, and the context maps keep exactly the entries
 * Python's dicts keep (full keys stored, old entries dropped at the same moments).
 *
 * Memory that Python reads (tables, scores, tallies, shadows' membership, outputs) is owned by
 * numpy arrays and bound with rp_bind; the state owns only its private history, maps, shadow
 * member lists and scratch.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rotary_policy.h"       /* status codes, rp_engine: what Python mirrors */

#define RP_FREE (-1)
#define RENORMALISE_AT 1e150      /* rotary.py's RENORMALISE_AT */

/* ---- an open-addressing map: full key (n uint16 ids) -> last token (int64) ---------------- */

/* One entry is {int64 value (-1 = empty), uint64 hash, uint16 key[keylen]} in one run of bytes,
 * so that a probe after a decode step (cold caches) touches one cache line, not three. */
typedef struct {
    int32_t keylen;            /* uint16 words per key */
    int64_t stride;            /* bytes per entry */
    int64_t cap, count;        /* cap: a power of two; count <= cap / 2 */
    unsigned char *entries;    /* [cap][stride] */
} rp_map;

#define RP_VAL(m, i) (*(int64_t *)((m)->entries + (i) * (m)->stride))
#define RP_HASH(m, i) (*(uint64_t *)((m)->entries + (i) * (m)->stride + 8))
#define RP_KEY(m, i) ((uint16_t *)((m)->entries + (i) * (m)->stride + 16))

static uint64_t rp_hash(const uint16_t *key, int32_t n) {
    uint64_t h = 1469598103934665603ULL;                 /* FNV-1a over the 16-bit words */
    for (int32_t i = 0; i < n; i++) {
        h ^= key[i];
        h *= 1099511628211ULL;
    }
    return h ^ (h >> 29);
}

static int rp_map_alloc(rp_map *m, int32_t keylen, int64_t cap) {
    m->keylen = keylen;
    m->stride = 16 + (((int64_t)keylen * 2 + 7) / 8) * 8;
    m->cap = cap;
    m->count = 0;
    m->entries = malloc((size_t)(cap * m->stride));
    if (!m->entries) return RP_E_NOMEM;
    for (int64_t i = 0; i < cap; i++) RP_VAL(m, i) = -1;
    return RP_OK;
}

static void rp_map_free(rp_map *m) {
    free(m->entries);
    m->entries = NULL;
}

/* Index of the key's entry, or of the empty entry where it would go. */
static int64_t rp_map_find(const rp_map *m, const uint16_t *key, uint64_t h) {
    int64_t mask = m->cap - 1, i = (int64_t)(h & (uint64_t)mask);
    size_t bytes = (size_t)m->keylen * sizeof(uint16_t);
    while (RP_VAL(m, i) >= 0) {
        if (RP_HASH(m, i) == h && memcmp(RP_KEY(m, i), key, bytes) == 0) return i;
        i = (i + 1) & mask;
    }
    return i;
}

static void rp_map_place(rp_map *m, const uint16_t *key, uint64_t h, int64_t val) {
    int64_t i = rp_map_find(m, key, h);
    if (RP_VAL(m, i) < 0) {
        memcpy(RP_KEY(m, i), key, (size_t)m->keylen * sizeof(uint16_t));
        RP_HASH(m, i) = h;
        m->count++;
    }
    RP_VAL(m, i) = val;
}

/* Rebuild with capacity `cap`, keeping the entries whose value is >= keep_from. */
static int rp_map_rebuild(rp_map *m, int64_t cap, int64_t keep_from) {
    rp_map old = *m;
    if (rp_map_alloc(m, old.keylen, cap) != RP_OK) {
        *m = old;
        return RP_E_NOMEM;
    }
    for (int64_t i = 0; i < old.cap; i++)
        if (RP_VAL(&old, i) >= keep_from)
            rp_map_place(m, RP_KEY(&old, i), RP_HASH(&old, i), RP_VAL(&old, i));
    rp_map_free(&old);
    return RP_OK;
}

/* get, then put `val` under the same key: the last token before this one with the key, or -1. */
static int rp_map_swap(rp_map *m, const uint16_t *key, int64_t val, int64_t *previous) {
    uint64_t h = rp_hash(key, m->keylen);
    int64_t i = rp_map_find(m, key, h);
    *previous = RP_VAL(m, i);
    if (*previous >= 0) {
        RP_VAL(m, i) = val;
        return RP_OK;
    }
    if (2 * (m->count + 1) > m->cap) {                    /* keep the load at most 1/2 */
        int status = rp_map_rebuild(m, 2 * m->cap, 0);
        if (status != RP_OK) return status;
    }
    rp_map_place(m, key, h, val);
    return RP_OK;
}

/* Python's _forget_before: drop entries older than `oldest`; shrink when few remain. */
static int rp_map_forget(rp_map *m, int64_t oldest) {
    int64_t live = 0, cap = 64;
    for (int64_t i = 0; i < m->cap; i++) live += RP_VAL(m, i) >= oldest;
    while (cap < 4 * live) cap *= 2;
    return rp_map_rebuild(m, cap, oldest);
}

/* ---- the policy state --------------------------------------------------------------------- */

#define FORECAST_KEY 1e12          /* rotary.py's FORECAST_KEY */
#define RP_ALWAYS 0                /* rotary.py's ALWAYS and OUTSCORE */
#define RP_OUTSCORE 1

typedef struct { uint32_t stamp; int32_t dist; } rp_mark;

typedef struct {
    int32_t n_layers, n_expert, k, order, horizon, memory, layer_match, upload_cap;
    int32_t n_half, n_rules;     /* H half-lives, R rules */
    int32_t out_cap;             /* upload/eviction rows per layer: max(1, min(upload_cap, k)) */
    int32_t max_slots, total_slots;
    double fade;                 /* 2.0 ** (-1.0 / window), computed by Python */
    double pool;                 /* pool / n_layers: weight of the all-layer tally, from Python */
    double forecast_floor;       /* keys >= this are forecast (FORECAST_KEY / horizon) */
    double *growth;              /* [H] 2.0 ** (1.0 / half_life) or 1.0, computed by Python */
    int32_t *rule_half;          /* [R] half-life index of rule r, -1: the forecast */
    int32_t *rule_admit;         /* [R] RP_ALWAYS or RP_OUTSCORE */
    int32_t *slots, *slot_off;   /* [L] slots per layer, offset of its ring in expert_in */
    /* bound (numpy-owned) */
    double *score;               /* [L][H][E] decayed uses x boost */
    double *boost;               /* [L][H] */
    double *tally;               /* [L][R] decayed shadow hits */
    int32_t *rule, *base;        /* [L] rule followed; half-life the forecast ranks the rest by */
    uint8_t *member;             /* [L][R][E] 1: in rule r's shadow */
    int32_t *slot_of;            /* [L][E] expert -> slot, -1 */
    int32_t *expert_in;          /* [sum slots] slot -> expert, -1 */
    int32_t *next_free;          /* [L] free slots are next_free..slots-1 (Python's stack pops 0 first) */
    int64_t *clock;              /* [L] */
    int64_t *start;              /* [L] past token the forecast follows, -1 */
    int64_t *token_match;        /* [2] token, match */
    int32_t *hits, *misses, *n_up, *n_ev;        /* [L] outputs of the last step */
    int32_t *up_e, *up_s, *ev_e, *ev_s;          /* [L][out_cap] */
    /* private */
    int32_t *shadow;             /* rule r of layer l: [slots[l]] members at (R * slot_off[l] + r * slots[l]) */
    int32_t *shadow_n;           /* [L][R] members held */
    double *pooled;              /* [R] sum of the layers' tallies */
    double *merit;               /* [R] scratch: tally + pool * pooled */
    int32_t *base_admit;         /* [L] the best plain rule's admission */
    /* [L][memory] records {int64 token; uint16 ids[k]}: a layer's consecutive tokens lie
     * together (a forecast reads `horizon` of them); the token says the row is that token's
     * (Python: the history row is not None). */
    unsigned char *history;
    int64_t row_bytes;
    uint16_t *signature;         /* [memory][k] sorted layer-0 ids */
    rp_map *seen;                /* [order]: context of length i+1 -> last token */
    rp_map *seen_layer;          /* [L]: sorted ids -> last token */
    rp_mark *forecast;           /* [L][E] stamp == f_cur[l]: in the forecast, at distance dist */
    uint32_t *f_cur;             /* [L] */
    uint8_t *f_built;            /* [L] Python: forecast[layer] is not None */
    uint16_t *key;               /* [order * k] scratch */
    double *cand_key;            /* [max_slots + k + 1] scratch: victims, then ranked misses */
    int32_t *cand_id;
    double *share;               /* [E] scratch: near-miss shares */
    int32_t *credit;             /* [E] scratch: their experts */
    int32_t *before;             /* [sum slots] scratch: the rings before a prompt */
} rp_state;

#define TOKEN(s) ((s)->token_match[0])
#define MATCH(s) ((s)->token_match[1])
#define RP_ROW_TOKEN(s, at) ((int64_t *)((s)->history + (at) * (s)->row_bytes))
#define RP_ROW_IDS(s, at) ((uint16_t *)((s)->history + (at) * (s)->row_bytes + 8))

RP_EXPORT void rp_free(rp_state *s);

static int rp_alloc_private(rp_state *s) {
    int32_t L = s->n_layers, R = s->n_rules, E = s->n_expert, k = s->k;
    int32_t scratch = s->max_slots + k + 1;
    s->row_bytes = 8 + (((int64_t)k * 2 + 7) / 8) * 8;
    s->history = malloc((size_t)((int64_t)s->memory * L * s->row_bytes));
    s->signature = malloc((size_t)s->memory * k * sizeof(uint16_t));
    s->seen = calloc(s->order ? s->order : 1, sizeof(rp_map));
    s->seen_layer = calloc(L, sizeof(rp_map));
    s->forecast = calloc((size_t)L * E, sizeof(rp_mark));
    s->f_cur = calloc(L, sizeof(uint32_t));
    s->f_built = calloc(L, 1);
    s->key = malloc(sizeof(uint16_t) * ((size_t)(s->order ? s->order : 1) * k));
    s->cand_key = malloc(sizeof(double) * scratch);
    s->cand_id = malloc(sizeof(int32_t) * scratch);
    s->share = malloc(sizeof(double) * E);
    s->credit = malloc(sizeof(int32_t) * E);
    s->before = malloc(sizeof(int32_t) * s->total_slots);
    s->shadow = malloc(sizeof(int32_t) * (size_t)R * s->total_slots);
    s->shadow_n = calloc((size_t)L * R, sizeof(int32_t));
    s->pooled = calloc(R, sizeof(double));
    s->merit = calloc(R, sizeof(double));
    s->base_admit = calloc(L, sizeof(int32_t));
    if (!s->history || !s->signature || !s->seen || !s->seen_layer || !s->forecast || !s->f_cur
        || !s->f_built || !s->key || !s->cand_key || !s->cand_id || !s->share || !s->credit
        || !s->before || !s->shadow || !s->shadow_n || !s->pooled || !s->merit || !s->base_admit)
        return RP_E_NOMEM;
    for (int64_t i = 0; i < (int64_t)s->memory * L; i++) *RP_ROW_TOKEN(s, i) = -1;
    for (int32_t i = 0; i < s->order; i++)
        if (rp_map_alloc(&s->seen[i], (i + 1) * k, 64) != RP_OK) return RP_E_NOMEM;
    for (int32_t l = 0; l < L; l++)
        if (rp_map_alloc(&s->seen_layer[l], k, 64) != RP_OK) return RP_E_NOMEM;
    return RP_OK;
}

/* growth [n_half] and the rules (rule_half, rule_admit [n_rules]) come from RotaryConfig. */
RP_EXPORT rp_state *rp_new(int32_t n_layers, int32_t n_expert, int32_t k, const int32_t *slots,
                           int32_t upload_cap, int32_t order, int32_t horizon, int32_t memory,
                           int32_t layer_match, int32_t n_half, const double *growth, double fade,
                           double pool, int32_t n_rules, const int32_t *rule_half,
                           const int32_t *rule_admit) {
    if (n_layers < 1 || n_expert < 1 || n_expert > 65535 || k < 1 || k > 256 || upload_cap < 0
        || memory < 1 || n_half < 1 || n_rules < 1 || !(pool >= 0.0)) return NULL;
    for (int32_t r = 0; r < n_rules; r++)
        if (rule_half[r] < -1 || rule_half[r] >= n_half
            || (rule_admit[r] != RP_ALWAYS && rule_admit[r] != RP_OUTSCORE)) return NULL;
    rp_state *s = calloc(1, sizeof(rp_state));
    if (!s) return NULL;
    s->n_layers = n_layers; s->n_expert = n_expert; s->k = k;
    s->order = order < 0 ? 0 : order;                 /* Python: no context lengths either */
    s->horizon = horizon; s->memory = memory; s->layer_match = layer_match;
    s->upload_cap = upload_cap; s->fade = fade; s->n_half = n_half; s->n_rules = n_rules;
    s->pool = pool;
    s->forecast_floor = FORECAST_KEY / (double)(horizon > 1 ? horizon : 1);
    s->out_cap = upload_cap < k ? upload_cap : k;
    if (s->out_cap < 1) s->out_cap = 1;              /* the row stride; cap 0 writes nothing */
    s->growth = malloc(sizeof(double) * n_half);
    s->rule_half = malloc(sizeof(int32_t) * n_rules);
    s->rule_admit = malloc(sizeof(int32_t) * n_rules);
    s->slots = malloc(sizeof(int32_t) * n_layers);
    s->slot_off = malloc(sizeof(int32_t) * n_layers);
    if (!s->growth || !s->rule_half || !s->rule_admit || !s->slots || !s->slot_off) {
        rp_free(s); return NULL;
    }
    memcpy(s->growth, growth, sizeof(double) * n_half);
    memcpy(s->rule_half, rule_half, sizeof(int32_t) * n_rules);
    memcpy(s->rule_admit, rule_admit, sizeof(int32_t) * n_rules);
    for (int32_t l = 0; l < n_layers; l++) {
        if (slots[l] < 1 || slots[l] > n_expert) { rp_free(s); return NULL; }
        s->slots[l] = slots[l];
        s->slot_off[l] = s->total_slots;
        s->total_slots += slots[l];
        if (slots[l] > s->max_slots) s->max_slots = slots[l];
    }
    if (rp_alloc_private(s) != RP_OK) { rp_free(s); return NULL; }
    return s;
}

/* Bind the numpy-owned arrays (shapes in rp_state); tables and shadows start empty. */
RP_EXPORT int32_t rp_bind(rp_state *s, double *score, double *boost, double *tally, int32_t *rule,
                          int32_t *base, uint8_t *member, int32_t *slot_of, int32_t *expert_in,
                          int32_t *next_free, int64_t *clock, int64_t *start, int64_t *token_match,
                          int32_t *counts /* [4][L] */, int32_t *moves /* [4][L][out_cap] */) {
    int32_t L = s->n_layers, E = s->n_expert, H = s->n_half, R = s->n_rules, C = s->out_cap;
    s->score = score; s->boost = boost; s->tally = tally; s->rule = rule; s->base = base;
    s->member = member; s->slot_of = slot_of; s->expert_in = expert_in; s->next_free = next_free;
    s->clock = clock; s->start = start; s->token_match = token_match;
    s->hits = counts; s->misses = counts + L; s->n_up = counts + 2 * L; s->n_ev = counts + 3 * L;
    s->up_e = moves; s->up_s = moves + L * C; s->ev_e = moves + 2 * L * C; s->ev_s = moves + 3 * L * C;
    for (int64_t i = 0; i < (int64_t)L * H * E; i++) score[i] = 0.0;
    for (int64_t i = 0; i < (int64_t)L * H; i++) boost[i] = 1.0;
    for (int64_t i = 0; i < (int64_t)L * R; i++) { tally[i] = 0.0; s->shadow_n[i] = 0; }
    for (int32_t r = 0; r < R; r++) s->pooled[r] = 0.0;
    memset(member, 0, (size_t)L * R * E);
    for (int32_t l = 0; l < L; l++) {
        rule[l] = 0; base[l] = 0; next_free[l] = 0; clock[l] = 0; start[l] = -1;
        s->base_admit[l] = RP_ALWAYS;
        for (int32_t i = 0; i < s->slots[l]; i++) expert_in[s->slot_off[l] + i] = RP_FREE;
    }
    for (int64_t i = 0; i < (int64_t)L * E; i++) slot_of[i] = RP_FREE;
    TOKEN(s) = -1;
    MATCH(s) = -1;
    return RP_OK;
}

RP_EXPORT void rp_free(rp_state *s) {
    if (!s) return;
    for (int32_t i = 0; s->seen && i < s->order; i++) rp_map_free(&s->seen[i]);
    for (int32_t l = 0; s->seen_layer && l < s->n_layers; l++) rp_map_free(&s->seen_layer[l]);
    free(s->growth); free(s->rule_half); free(s->rule_admit); free(s->slots); free(s->slot_off);
    free(s->history); free(s->signature); free(s->seen); free(s->seen_layer); free(s->forecast);
    free(s->f_cur); free(s->f_built); free(s->key); free(s->cand_key); free(s->cand_id);
    free(s->share); free(s->credit); free(s->before); free(s->shadow); free(s->shadow_n);
    free(s->pooled); free(s->merit); free(s->base_admit);
    free(s);
}

static void rp_sorted(const int32_t *ids, int32_t k, uint16_t *out) {   /* insertion sort */
    for (int32_t i = 0; i < k; i++) {
        uint16_t v = (uint16_t)ids[i];
        int32_t j = i;
        for (; j > 0 && out[j - 1] > v; j--) out[j] = out[j - 1];
        out[j] = v;
    }
}

static int rp_contains(const int32_t *values, int32_t n, int32_t v) {
    for (int32_t i = 0; i < n; i++) if (values[i] == v) return 1;
    return 0;
}

/* ---- the forecast's memory (_remember, _next_token, _forget_before, _forecast) ------------- */

static int rp_forget_before(rp_state *s, int64_t oldest) {
    for (int32_t i = 0; i < s->order; i++)
        if (rp_map_forget(&s->seen[i], oldest) != RP_OK) return RP_E_NOMEM;
    for (int32_t l = 0; l < s->n_layers; l++)
        if (rp_map_forget(&s->seen_layer[l], oldest) != RP_OK) return RP_E_NOMEM;
    return RP_OK;
}

static int rp_next_token(rp_state *s, const uint16_t *sorted0) {
    int64_t t = TOKEN(s) + 1, mem = s->memory;
    int32_t k = s->k;
    TOKEN(s) = t;
    memcpy(s->signature + (t % mem) * k, sorted0, sizeof(uint16_t) * k);
    if (t && t % mem == 0 && rp_forget_before(s, t - mem) != RP_OK) return RP_E_NOMEM;
    MATCH(s) = -1;
    int64_t longest = s->order < t + 1 ? s->order : t + 1;
    for (int64_t length = longest; length > 0; length--) {      /* longest context first */
        for (int64_t i = 0; i < length; i++)
            memcpy(s->key + i * k, s->signature + ((t - i) % mem) * k, sizeof(uint16_t) * k);
        int64_t earlier;
        if (rp_map_swap(&s->seen[length - 1], s->key, t, &earlier) != RP_OK) return RP_E_NOMEM;
        if (MATCH(s) < 0 && earlier >= 0 && t - earlier < mem - s->horizon) MATCH(s) = earlier;
    }
    return RP_OK;
}

static int rp_remember(rp_state *s, int32_t l, const int32_t *ids) {
    uint16_t sorted[256];
    int32_t k = s->k;
    rp_sorted(ids, k, sorted);
    if (l == 0 && rp_next_token(s, sorted) != RP_OK) return RP_E_NOMEM;
    int64_t t = TOKEN(s), mem = s->memory;
    int64_t at = (int64_t)l * mem + t % mem;
    uint16_t *hist = RP_ROW_IDS(s, at);
    for (int32_t i = 0; i < k; i++) hist[i] = (uint16_t)ids[i];
    *RP_ROW_TOKEN(s, at) = t;
    int64_t start = MATCH(s);
    if (s->layer_match) {
        int64_t earlier;
        if (rp_map_swap(&s->seen_layer[l], sorted, t, &earlier) != RP_OK) return RP_E_NOMEM;
        if (start < 0) start = t - earlier >= mem - s->horizon ? -1 : earlier;
    }
    s->start[l] = start;
    s->f_built[l] = 0;
    return RP_OK;
}

static void rp_build_forecast(rp_state *s, int32_t l) {
    rp_mark *mark = s->forecast + (int64_t)l * s->n_expert;
    if (++s->f_cur[l] == 0) {                            /* wrapped: clear the old stamps */
        memset(mark, 0, sizeof(rp_mark) * s->n_expert);
        s->f_cur[l] = 1;
    }
    uint32_t cur = s->f_cur[l];
    int64_t start = s->start[l], mem = s->memory;
    s->f_built[l] = 1;
    if (start < 0) return;
    int64_t span = TOKEN(s) - start;
    int64_t far = s->horizon < span ? s->horizon : span;
    for (int64_t d = far; d > 0; d--) {                  /* nearest written last: first distance wins */
        int64_t at = (int64_t)l * mem + (start + d) % mem;
        if (*RP_ROW_TOKEN(s, at) != start + d) continue;   /* that layer was not called then */
        const uint16_t *ids = RP_ROW_IDS(s, at);
        for (int32_t i = 0; i < s->k; i++) {
            mark[ids[i]].stamp = cur;
            mark[ids[i]].dist = (int32_t)d;
        }
    }
}

/* ---- scores (_count, near_miss_credits) ------------------------------------------------------ */

/* rotary.py's near_miss_credits: the router's best `n_top` scores (numpy's argpartition
 * picks them, ties included) that were not routed get their share of a use. Returns how many. */
static int32_t rp_shares(rp_state *s, const int32_t *ids, int32_t n_top, const int64_t *top,
                         const float *probs) {
    double peak = (double)probs[top[0]], low = peak;
    for (int32_t i = 1; i < n_top; i++) {
        double value = (double)probs[top[i]];
        if (value > peak) peak = value;
        if (value < low) low = value;
    }
    int logits = peak > 1.0 || low < 0.0;           /* raw scores: a softmax ratio instead */
    int32_t n = 0;
    for (int32_t i = 0; i < n_top; i++) {
        int32_t e = (int32_t)top[i];
        if (rp_contains(ids, s->k, e)) continue;
        double value = (double)probs[e];
        s->credit[n] = e;
        s->share[n++] = logits ? exp(value - peak) : peak > 0 ? value / peak : 0.0;
    }
    return n;
}

static void rp_count(rp_state *s, int32_t l, const int32_t *ids, int32_t n_top,
                     const int64_t *top, const float *probs) {
    int32_t n_credit = n_top > 0 ? rp_shares(s, ids, n_top, top, probs) : 0, E = s->n_expert;
    for (int32_t h = 0; h < s->n_half; h++) {
        double *boost = s->boost + (int64_t)l * s->n_half + h;
        double *score = s->score + ((int64_t)l * s->n_half + h) * E;
        double b = *boost * s->growth[h];
        *boost = b;
        for (int32_t i = 0; i < s->k; i++) score[ids[i]] += b;
        for (int32_t i = 0; i < n_credit; i++) score[s->credit[i]] += b * s->share[i];
        if (b > RENORMALISE_AT) {
            for (int32_t e = 0; e < E; e++) score[e] = score[e] / b;
            *boost = 1.0;
        }
    }
}

/* ---- ranking (_key_of) ------------------------------------------------------------------------ */

typedef struct {
    const double *score;
    double inv_boost;
    const rp_mark *mark;          /* NULL: a half-life rule (the raw score ranks) */
    uint32_t cur;
} rp_keyer;

static rp_keyer rp_keyer_of(rp_state *s, int32_t l, int32_t r) {
    rp_keyer key = {0};
    int32_t half = s->rule_half[r];
    if (half >= 0) {
        key.score = s->score + ((int64_t)l * s->n_half + half) * s->n_expert;
        return key;
    }
    if (!s->f_built[l]) rp_build_forecast(s, l);
    int32_t base = s->base[l];
    key.score = s->score + ((int64_t)l * s->n_half + base) * s->n_expert;
    key.inv_boost = 1.0 / s->boost[(int64_t)l * s->n_half + base];
    key.mark = s->forecast + (int64_t)l * s->n_expert;
    key.cur = s->f_cur[l];
    return key;
}

static inline double rp_key(const rp_keyer *key, int32_t e) {
    if (!key->mark) return key->score[e];
    if (key->mark[e].stamp == key->cur) return FORECAST_KEY / (double)key->mark[e].dist;
    return key->score[e] * key->inv_boost;
}

/* (key, id) a < b as Python compares tuples. */
static inline int rp_less(double ka, int32_t a, double kb, int32_t b) {
    return ka < kb || (ka == kb && a < b);
}

/* The misses ranked as sorted(((key(e), e) ...), reverse=True), at most `cap`: into
 * expert[]/key[]; returns how many. */
static int32_t rp_rank(const rp_keyer *key, const int32_t *missed, int32_t nm, int32_t cap,
                       int32_t *expert, double *keys) {
    for (int32_t i = 0; i < nm; i++) {
        double kv = rp_key(key, missed[i]);
        int32_t j = i;
        for (; j > 0 && rp_less(keys[j - 1], expert[j - 1], kv, missed[i]); j--) {
            keys[j] = keys[j - 1];
            expert[j] = expert[j - 1];
        }
        keys[j] = kv;
        expert[j] = missed[i];
    }
    return nm < cap ? nm : cap;
}

/* The `count` lowest (key, id) of the `n` candidates (values[i], unless protected by ids) into
 * cand_*[0..], lowest first: the successive min() the Python reference takes, since what it
 * admits in between is protected. cand_id holds the index i. Returns how many. */
static int32_t rp_lowest(rp_state *s, const rp_keyer *key, const int32_t *values, int32_t n,
                         int32_t count, const int32_t *ids, int32_t n_ids) {
    int32_t got = 0;
    for (int32_t i = 0; i < n; i++) {
        int32_t e = values[i];
        if (e == RP_FREE || rp_contains(ids, n_ids, e)) continue;
        double kv = rp_key(key, e);
        if (got == count && !rp_less(kv, e, s->cand_key[got - 1], values[s->cand_id[got - 1]]))
            continue;
        int32_t j = got < count ? got++ : got - 1;       /* insertion; the largest falls off */
        for (; j > 0 && rp_less(kv, e, s->cand_key[j - 1], values[s->cand_id[j - 1]]); j--) {
            s->cand_key[j] = s->cand_key[j - 1];
            s->cand_id[j] = s->cand_id[j - 1];
        }
        s->cand_key[j] = kv;
        s->cand_id[j] = i;
    }
    return got;
}

/* ---- the shadows and the choice (_learn, _admits, _move_shadow, _choose) ----------------------- */

/* Rule r's admission of a miss ranked `key` over a victim ranked `victim_key` (_admits). */
static inline int rp_admits(const rp_state *s, int32_t l, int32_t r, double key, double victim_key) {
    if (key > victim_key) return 1;
    if (s->rule_half[r] >= 0) return s->rule_admit[r] == RP_ALWAYS;
    return victim_key < s->forecast_floor && s->base_admit[l] == RP_ALWAYS;
}

static void rp_move_shadow(rp_state *s, int32_t l, int32_t r, const int32_t *ids) {
    int32_t k = s->k, S = s->slots[l], R = s->n_rules;
    uint8_t *member = s->member + ((int64_t)l * R + r) * s->n_expert;
    int32_t *shadow = s->shadow + (int64_t)R * s->slot_off[l] + (int64_t)r * S;
    int32_t *held = s->shadow_n + (int64_t)l * R + r;
    int32_t missed[256], nm = 0, ranked_e[256];
    double ranked_k[256];
    for (int32_t i = 0; i < k; i++) if (!member[ids[i]]) missed[nm++] = ids[i];
    if (nm == 0) return;
    rp_keyer key = rp_keyer_of(s, l, r);
    int32_t ranked = rp_rank(&key, missed, nm, s->upload_cap, ranked_e, ranked_k);
    int32_t need = ranked - (S - *held);
    int32_t n_victims = need > 0 ? rp_lowest(s, &key, shadow, *held, need, ids, k) : 0, v = 0;
    for (int32_t i = 0; i < ranked; i++) {
        int32_t e = ranked_e[i];
        if (*held < S) {
            shadow[(*held)++] = e;
            member[e] = 1;
            continue;
        }
        if (v >= n_victims) return;                      /* cannot happen: S >= k */
        if (!rp_admits(s, l, r, ranked_k[i], s->cand_key[v])) return;
        int32_t at = s->cand_id[v++];
        member[shadow[at]] = 0;
        shadow[at] = e;
        member[e] = 1;
    }
}

static void rp_choose(rp_state *s, int32_t l) {
    const double *tally = s->tally + (int64_t)l * s->n_rules;
    double *merit = s->merit;
    int32_t now = s->rule[l], best = 0, plain = -1;
    for (int32_t r = 0; r < s->n_rules; r++) merit[r] = tally[r] + s->pool * s->pooled[r];
    for (int32_t r = 1; r < s->n_rules; r++)      /* max by (merit, r == now, -r) */
        if (merit[r] > merit[best] || (merit[r] == merit[best] && r == now)) best = r;
    s->rule[l] = best;
    if (s->rule_half[best] >= 0) s->base[l] = s->rule_half[best];
    for (int32_t r = 0; r < s->n_rules; r++)      /* the best plain rule: max by (merit, -r) */
        if (s->rule_half[r] >= 0 && (plain < 0 || merit[r] > merit[plain])) plain = r;
    if (plain >= 0) s->base_admit[l] = s->rule_admit[plain];
}

static int rp_learn(rp_state *s, int32_t l, const int32_t *ids, int32_t n_top, const int64_t *top,
                    const float *probs) {
    int32_t R = s->n_rules, E = s->n_expert;
    double *tally = s->tally + (int64_t)l * R;
    for (int32_t r = 0; r < R; r++) {
        const uint8_t *member = s->member + ((int64_t)l * R + r) * E;
        int32_t hits = 0;
        for (int32_t i = 0; i < s->k; i++) hits += member[ids[i]];
        double now = tally[r] * s->fade + (double)hits;
        s->pooled[r] += now - tally[r];
        tally[r] = now;
    }
    if (rp_remember(s, l, ids) != RP_OK) return RP_E_NOMEM;
    rp_count(s, l, ids, n_top, top, probs);
    for (int32_t r = 0; r < R; r++) rp_move_shadow(s, l, r, ids);
    rp_choose(s, l);
    return RP_OK;
}

/* ---- the real slots (_decide) ------------------------------------------------------------------ */

static void rp_admit(rp_state *s, int32_t l, int32_t e, int32_t slot) {
    s->expert_in[s->slot_off[l] + slot] = e;
    s->slot_of[(int64_t)l * s->n_expert + e] = slot;
}

static int32_t rp_evict(rp_state *s, int32_t l, int32_t slot) {
    int32_t e = s->expert_in[s->slot_off[l] + slot];
    s->expert_in[s->slot_off[l] + slot] = RP_FREE;
    s->slot_of[(int64_t)l * s->n_expert + e] = RP_FREE;
    return e;
}

static void rp_decide(rp_state *s, int32_t l, const int32_t *ids, const int32_t *missed, int32_t nm) {
    int32_t expert[256], C = s->out_cap, S = s->slots[l];
    double keys[256];
    const int32_t *ring = s->expert_in + s->slot_off[l];
    int32_t r = s->rule[l];
    rp_keyer key = rp_keyer_of(s, l, r);
    int32_t ranked = rp_rank(&key, missed, nm, s->upload_cap, expert, keys);
    int32_t need = ranked - (S - s->next_free[l]);
    int32_t n_victims = need > 0 ? rp_lowest(s, &key, ring, S, need, ids, s->k) : 0, v = 0;
    for (int32_t i = 0; i < ranked; i++) {
        int32_t slot;
        if (s->next_free[l] < S) {
            slot = s->next_free[l]++;
        } else {
            if (v >= n_victims) return;
            if (!rp_admits(s, l, r, keys[i], s->cand_key[v])) return;      /* stays on the CPU */
            slot = s->cand_id[v++];
            int32_t n = s->n_ev[l]++;
            s->ev_s[l * C + n] = slot;
            s->ev_e[l * C + n] = rp_evict(s, l, slot);
        }
        rp_admit(s, l, expert[i], slot);
        int32_t n = s->n_up[l]++;
        s->up_e[l * C + n] = expert[i];
        s->up_s[l * C + n] = slot;
    }
}

/* ---- entry points --------------------------------------------------------------------------- */

static int rp_check_ids(const rp_state *s, const int32_t *ids) {
    for (int32_t i = 0; i < s->k; i++) if (ids[i] < 0 || ids[i] >= s->n_expert) return RP_E_ID;
    return RP_OK;
}

/* One layer after one token (ResidencyPolicy.after_token). With the router's scores probs
 * [E], top [n_top] are their best indices (argpartition); n_top = 0 without. Returns uploads. */
RP_EXPORT int32_t rp_step(rp_state *s, int32_t l, const int32_t *ids, int32_t n_top,
                          const int64_t *top, const float *probs) {
    if (!s || !s->score) return RP_E_UNBOUND;
    if (l < 0 || l >= s->n_layers) return RP_E_ARGS;
    if (l != 0 && TOKEN(s) < 0) return RP_E_ORDER;       /* layer 0 opens every token */
    if (rp_check_ids(s, ids) != RP_OK) return RP_E_ID;
    for (int32_t i = 0; i < n_top; i++) if (top[i] < 0 || top[i] >= s->n_expert) return RP_E_ID;
    const int32_t *slot_of = s->slot_of + (int64_t)l * s->n_expert;
    int32_t missed[256], nm = 0;
    for (int32_t i = 0; i < s->k; i++) if (slot_of[ids[i]] == RP_FREE) missed[nm++] = ids[i];
    s->clock[l] += 1;
    s->hits[l] = s->k - nm;
    s->misses[l] = nm;
    s->n_up[l] = 0;
    s->n_ev[l] = 0;
    if (rp_learn(s, l, ids, n_top, top, probs) != RP_OK) return RP_E_NOMEM;
    if (nm > 0 && s->upload_cap > 0) rp_decide(s, l, ids, missed, nm);
    return s->n_up[l];
}

/* All layers of one token, layer 0 first: ids [L][k]. Returns the uploads of all layers. */
RP_EXPORT int32_t rp_step_all(rp_state *s, const int32_t *ids) {
    int32_t total = 0;
    if (!s || !s->score) return RP_E_UNBOUND;
    for (int32_t l = 0; l < s->n_layers; l++) {
        int32_t got = rp_step(s, l, ids + (int64_t)l * s->k, 0, NULL, NULL);
        if (got < 0) return got;
        total += got;
    }
    return total;
}

/* RotaryPolicy.observe_prompt: routing [n_tokens][L][k] (a row of -1: that layer did not route
 * that token). The last `learn` tokens whose layer 0 routed train the policy; the last `feed`
 * of them go through rp_step. Writes the slots that changed as (layer, expert, slot), layer by
 * layer and slot by slot, into out_* [sum slots]; returns how many. */
RP_EXPORT int32_t rp_observe_prompt(rp_state *s, const int32_t *routing, int64_t n_tokens,
                                    int32_t learn, int32_t feed, int32_t *out_layer,
                                    int32_t *out_expert, int32_t *out_slot) {
    if (!s || !s->score) return RP_E_UNBOUND;
    int32_t L = s->n_layers, k = s->k;
    if (n_tokens < 0 || learn < 0 || feed < 0) return RP_E_ARGS;
    for (int64_t i = 0; i < n_tokens * L; i++) {        /* each row: all -1 or all in range */
        const int32_t *row = routing + i * k;
        if (row[0] == RP_FREE) {
            for (int32_t j = 1; j < k; j++) if (row[j] != RP_FREE) return RP_E_ID;
        } else if (rp_check_ids(s, row) != RP_OK) return RP_E_ID;
    }
    int64_t first = n_tokens > learn ? n_tokens - learn : 0, kept = 0;
    for (int64_t t = first; t < n_tokens; t++) kept += routing[t * L * k] != RP_FREE;
    int64_t fed_from = kept - (feed < kept ? feed : kept), n = 0;
    memcpy(s->before, s->expert_in, sizeof(int32_t) * s->total_slots);
    for (int64_t t = first; t < n_tokens; t++) {
        const int32_t *token = routing + t * L * k;
        if (token[0] == RP_FREE) continue;
        for (int32_t l = 0; l < L; l++) {
            const int32_t *ids = token + (int64_t)l * k;
            if (ids[0] == RP_FREE) continue;
            int status = n >= fed_from ? rp_step(s, l, ids, 0, NULL, NULL)
                                       : rp_learn(s, l, ids, 0, NULL, NULL);
            if (status < 0) return status;
        }
        n++;
    }
    int32_t got = 0;
    for (int32_t i = 0, l = 0; l < L; l++)
        for (int32_t slot = 0; slot < s->slots[l]; slot++, i++) {
            int32_t e = s->expert_in[i];
            if (e != RP_FREE && e != s->before[i]) {
                out_layer[got] = l; out_expert[got] = e; out_slot[got++] = slot;
            }
        }
    return got;
}

/* rp_engine (the libllama calls) and its RP_FAILED_* codes: rotary_policy.h. */
/* One decoded token, in one call from Python: read the step's routing into ids [L][k],
 * decide every layer, upload and stage the layers that changed, publish. After a decode step
 * every ctypes call costs microseconds of cold caches, so the whole step stays here.
 * *read_status: what read_routing returned (<= 0: no decode step, nothing decided).
 * Returns the uploads; a libllama status < 0 comes back with *failed saying which call. */
RP_EXPORT int32_t rp_engine_step(rp_state *s, const rp_engine *e, int32_t *ids,
                                 int32_t *read_status, int32_t *failed) {
    *failed = RP_FAILED_NONE;
    if (!s || !s->score) return RP_E_UNBOUND;
    *read_status = e->read_routing(e->ctx, ids, NULL);
    if (*read_status <= 0) {
        *failed = *read_status < 0 ? RP_FAILED_READ : RP_FAILED_NONE;
        return *read_status;
    }
    const int32_t total = rp_step_all(s, ids);
    if (total <= 0) return total;
    const int64_t row = s->out_cap;
    for (int32_t l = 0; l < s->n_layers; l++) {
        const int32_t n = s->n_up[l];
        if (n == 0) continue;
        const int32_t il = e->model_layer[l];
        int32_t status = e->upload(e->ctx, il, n, s->up_e + l * row, s->up_s + l * row);
        if (status < 0) { *failed = RP_FAILED_UPLOAD; return status; }
        status = e->stage(e->ctx, il, s->expert_in + s->slot_off[l]);
        if (status < 0) { *failed = RP_FAILED_STAGE; return status; }
    }
    const int32_t status = e->commit(e->ctx);
    if (status < 0) { *failed = RP_FAILED_COMMIT; return status; }
    return total;
}

/* _restore_layer: make `wanted` resident; writes (expert, slot) uploads; returns how many. */
RP_EXPORT int32_t rp_restore_layer(rp_state *s, int32_t l, const int32_t *wanted, int32_t n_wanted,
                                   int32_t *up_e, int32_t *up_s) {
    if (!s || !s->score) return RP_E_UNBOUND;
    if (l < 0 || l >= s->n_layers || n_wanted < 0) return RP_E_ARGS;
    for (int32_t i = 0; i < n_wanted; i++)
        if (wanted[i] < 0 || wanted[i] >= s->n_expert) return RP_E_ID;
    const int32_t *slot_of = s->slot_of + (int64_t)l * s->n_expert;
    const int32_t *ring = s->expert_in + s->slot_off[l];
    int32_t n = 0;
    for (int32_t i = 0; i < n_wanted && n < s->slots[l]; i++)       /* missing[:n_slots] */
        if (slot_of[wanted[i]] == RP_FREE) up_e[n++] = wanted[i];
    for (int32_t i = 0; i < n; i++) {
        int32_t slot;
        if (s->next_free[l] < s->slots[l]) {
            slot = s->next_free[l]++;
        } else {
            rp_keyer key = rp_keyer_of(s, l, s->rule[l]);
            if (rp_lowest(s, &key, ring, s->slots[l], 1, wanted, n_wanted) < 1) return RP_E_NO_VICTIM;
            slot = s->cand_id[0];
        }
        if (ring[slot] != RP_FREE) rp_evict(s, l, slot);
        rp_admit(s, l, up_e[i], slot);
        up_s[i] = slot;
    }
    return n;
}

RP_EXPORT int32_t rp_out_cap(const rp_state *s) { return s->out_cap; }
RP_EXPORT int64_t rp_map_entries(const rp_state *s) {   /* for tests: memory stays bounded */
    int64_t total = 0;
    for (int32_t i = 0; i < s->order; i++) total += s->seen[i].count;
    for (int32_t l = 0; l < s->n_layers; l++) total += s->seen_layer[l].count;
    return total;
}
