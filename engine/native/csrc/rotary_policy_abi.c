/* rotary_policy.h's layouts and codes as this compiler sees them (see rotary_abi.h). */
#include "rotary_policy.h"

#define RP_ABI_CODE(name, value) ROTARY_ABI_CODE(name),

static const rotary_abi_entry RP_ABI[] = {
    ROTARY_ABI_STRUCT(rp_engine),
    ROTARY_ABI_FIELD(rp_engine, read_routing),
    ROTARY_ABI_FIELD(rp_engine, upload),
    ROTARY_ABI_FIELD(rp_engine, stage),
    ROTARY_ABI_FIELD(rp_engine, commit),
    ROTARY_ABI_FIELD(rp_engine, ctx),
    ROTARY_ABI_FIELD(rp_engine, model_layer),
    RP_STATUS_CODES(RP_ABI_CODE)
    RP_FAILED_CODES(RP_ABI_CODE)
    ROTARY_ABI_END,
};

RP_EXPORT const rotary_abi_entry *rp_abi(void) { return RP_ABI; }
