/*
 * rotary_policy.c's interface to Python: its status codes and the engine-step struct that
 * engine/residency/native_rotary.py fills (as _Engine). rotary_policy_abi.c publishes both
 * (rp_abi), and Python checks its mirror against them when it loads the library.
 */
#ifndef ROTARY_POLICY_H
#define ROTARY_POLICY_H

#include <stdint.h>

#include "rotary_abi.h"

#define RP_EXPORT ROTARY_EXPORT

/* What a step returns when it fails (native_rotary.ERROR_TEXT says each in words). One list
 * makes both the enum and rp_abi's entries, so a code added here reaches Python's check. */
#define RP_STATUS_CODES(X) \
    X(RP_OK, 0) X(RP_E_ARGS, -1) X(RP_E_ORDER, -2) X(RP_E_ID, -3) X(RP_E_NOMEM, -4) \
    X(RP_E_NO_VICTIM, -5) X(RP_E_UNBOUND, -6)

/* The slot-cache calls of libllama the engine step makes (engine/runtime/slot_cache.py
 * declares the same signatures; a test ties them together). */
typedef int32_t (*rp_read_routing_fn)(void *ctx, int32_t *ids, float *probs);
typedef int32_t (*rp_upload_fn)(void *ctx, int32_t il, int32_t n, const int32_t *experts, const int32_t *slots);
typedef int32_t (*rp_stage_fn)(void *ctx, int32_t il, const int32_t *slot_to_expert);
typedef int32_t (*rp_commit_fn)(void *ctx);

typedef struct {
    rp_read_routing_fn read_routing;
    rp_upload_fn upload;
    rp_stage_fn stage;
    rp_commit_fn commit;
    void *ctx;
    const int32_t *model_layer;   /* [L] model layer of each policy layer */
} rp_engine;

/* rp_engine_step's *failed: which libllama call returned the failing status. */
#define RP_FAILED_CODES(X) \
    X(RP_FAILED_NONE, 0) X(RP_FAILED_READ, 1) X(RP_FAILED_UPLOAD, 2) X(RP_FAILED_STAGE, 3) \
    X(RP_FAILED_COMMIT, 4)

#define RP_ENUM_ITEM(name, value) name = value,
enum { RP_STATUS_CODES(RP_ENUM_ITEM) };
enum { RP_FAILED_CODES(RP_ENUM_ITEM) };

RP_EXPORT const rotary_abi_entry *rp_abi(void);

#endif
