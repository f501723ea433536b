// Test harness (never shipped): asynchronous copies that land as late as ggml's API allows.
//
// Loaded with LD_PRELOAD into a device-test child (tests/support/late_copy.py builds it).
// On Mesa's lavapipe every queue is one in-order queue, so a copy queued with
// ggml_backend_tensor_set_async lands before any later graph whether or not the graph was told
// to wait for it. This library interposes ggml-base's exported functions and holds the copies
// back, per backend (one backend = one stream), until something obliges them to be done:
//
//   ggml_backend_event_wait(b, e)      copies queued on e's backend before e was recorded
//   ggml_backend_event_synchronize(e)  the same
//   ggml_backend_synchronize(b)        every copy queued on b
//   ggml_backend_graph_compute_async(b), ggml_backend_tensor_get_async(b),
//   ggml_backend_tensor_copy_async, ggml_backend_free(b)   b's own copies (stream order)
//
// A copy lands with a plain ggml_backend_tensor_set that reads its source then, as a copy
// engine reads it: a source rewritten between queue and landing changes the data (and is
// counted: "rewritten_sources"). The real event and synchronize functions are still called, so
// the back-end's own objects behave as before; its own async copy path is not used.
//
// Mutations (environment LATE_COPY_MUTATION, read once at load; anything else aborts):
//   skip_wait    ggml_backend_event_wait lands nothing (the graph's wait made a no-op)
//   wrong_event  the wait lands only what the event recorded before the waited one on the same
//                backend covered (a staging half's or the previous step's, not uploads_done)
//   scribble     after queuing a copy on a backend whose events another backend waited for
//                (the slot cache's copy lane), its source is zeroed: the staging memory
//                rewritten before the copy landed
//
// Reporting: LATE_COPY_REPORT names a folder; at exit each process writes
// late_copy-<pid>.json there (calls intercepted per function, copies, how they landed). The
// real functions are resolved at the first intercepted call; a missing one aborts the process.
// late_copy_resolve() resolves them on demand and returns how many are missing.

#define _GNU_SOURCE
#include <dlfcn.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct ggml_backend * ggml_backend_t;
typedef struct ggml_backend_event * ggml_backend_event_t;
struct ggml_tensor;
struct ggml_cgraph;

// ---- the real functions ------------------------------------------------------------------

enum { F_SET_ASYNC, F_RECORD, F_WAIT, F_EV_SYNC, F_SYNC, F_COMPUTE, F_GET_ASYNC, F_COPY_ASYNC,
       F_FREE, F_EV_FREE, F_SET, N_FUNCS };
// F_SET (ggml_backend_tensor_set) is called, not interposed: the copies land through it
static const char * const NAMES[N_FUNCS] = {
    "ggml_backend_tensor_set_async", "ggml_backend_event_record", "ggml_backend_event_wait",
    "ggml_backend_event_synchronize", "ggml_backend_synchronize",
    "ggml_backend_graph_compute_async", "ggml_backend_tensor_get_async",
    "ggml_backend_tensor_copy_async", "ggml_backend_free", "ggml_backend_event_free",
    "ggml_backend_tensor_set",
};
static const int N_INTERPOSED = F_SET;
static void * real[N_FUNCS];
static int64_t calls[N_FUNCS];
static int resolved;

typedef void (*set_async_t)(ggml_backend_t, struct ggml_tensor *, const void *, size_t, size_t);
typedef void (*record_t)(ggml_backend_event_t, ggml_backend_t);
typedef void (*wait_t)(ggml_backend_t, ggml_backend_event_t);
typedef void (*ev_sync_t)(ggml_backend_event_t);
typedef void (*sync_t)(ggml_backend_t);
typedef int  (*compute_t)(ggml_backend_t, struct ggml_cgraph *);
typedef void (*get_async_t)(ggml_backend_t, const struct ggml_tensor *, void *, size_t, size_t);
typedef void (*copy_async_t)(ggml_backend_t, ggml_backend_t, struct ggml_tensor *, struct ggml_tensor *);
typedef void (*free_t)(ggml_backend_t);
typedef void (*ev_free_t)(ggml_backend_event_t);
typedef void (*set_t)(struct ggml_tensor *, const void *, size_t, size_t);

// RTLD_NEXT finds libggml-base when it is in the global scope; the engine may load it
// RTLD_LOCAL (ctypes' default), so fall back to the loaded library by its soname.
static void * find_real(const char * name) {
    void * sym = dlsym(RTLD_NEXT, name);
    if (sym == NULL) {
        void * base = dlopen("libggml-base.so.0", RTLD_LAZY | RTLD_NOLOAD);
        if (base == NULL) {
            base = dlopen("libggml-base.so", RTLD_LAZY | RTLD_NOLOAD);
        }
        sym = base != NULL ? dlsym(base, name) : NULL;
    }
    return sym;
}

int late_copy_resolve(void) {
    int missing = 0;
    for (int i = 0; i < N_FUNCS; ++i) {
        if (real[i] == NULL) {
            real[i] = find_real(NAMES[i]);
        }
        if (real[i] == NULL) {
            fprintf(stderr, "late_copy: %s is not exported by the loaded libggml-base\n", NAMES[i]);
            missing++;
        }
    }
    resolved = missing == 0;
    return missing;
}

// ---- state ---------------------------------------------------------------------------------

enum mutation { M_NONE, M_SKIP_WAIT, M_WRONG_EVENT, M_SCRIBBLE };
static enum mutation mutation = M_NONE;
static const char * mutation_name = "none";

typedef struct {
    struct ggml_tensor * dst;
    const void * src;
    size_t offset, size;
    uint64_t seq, hash;
} copy_t;

typedef struct {
    ggml_backend_t backend;
    uint64_t seq;          // copies queued on this backend so far
    uint64_t last_record;  // seq covered by the last event recorded on it
    int waited;            // another backend waited for one of its events (a copy lane)
    copy_t * copies;       // pending, in queue order
    size_t n, cap;
} queue_t;

typedef struct {
    ggml_backend_event_t event;
    queue_t * queue;       // where it was last recorded (NULL: never)
    ggml_backend_t backend;
    uint64_t seq, before;  // seq it covers; seq the record before it on that backend covered
} event_t;

#define MAX_QUEUES 64
#define MAX_EVENTS 256
static queue_t queues[MAX_QUEUES];
static event_t events[MAX_EVENTS];
static pthread_mutex_t lock;

enum { L_WAIT, L_EV_SYNC, L_SYNC, L_STREAM, L_FREE, N_LANDED };
static const char * const LANDED[N_LANDED] = { "wait", "event_synchronize", "synchronize",
                                                "stream", "free" };
static int64_t landed[N_LANDED];
static int64_t held, held_bytes, max_pending, rewritten, scribbled, skipped_waits,
               redirected_waits, short_waits;

static void fail(const char * what) {
    fprintf(stderr, "late_copy: %s\n", what);
    abort();
}

static void ensure_resolved(void) {
    if (!resolved && late_copy_resolve() != 0) {
        fail("cannot find the real ggml functions: the harness no longer matches ggml "
             "(see tests/support/late_copy.py)");
    }
}

static uint64_t hash_bytes(const void * data, size_t size) {
    const uint8_t * p = (const uint8_t *) data;
    uint64_t h = 0x9e3779b97f4a7c15ull ^ size;
    size_t i = 0;
    for (; i + 8 <= size; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    for (; i < size; ++i) {
        h = (h ^ p[i]) * 0x100000001b3ull;
    }
    return h;
}

static queue_t * queue_of(ggml_backend_t backend, int create) {
    queue_t * free_slot = NULL;
    for (int i = 0; i < MAX_QUEUES; ++i) {
        if (queues[i].backend == backend) {
            return &queues[i];
        }
        if (free_slot == NULL && queues[i].backend == NULL) {
            free_slot = &queues[i];
        }
    }
    if (!create) {
        return NULL;
    }
    if (free_slot == NULL) {
        fail("more than 64 backends");
    }
    memset(free_slot, 0, sizeof(*free_slot));
    free_slot->backend = backend;
    return free_slot;
}

static event_t * event_of(ggml_backend_event_t event, int create) {
    event_t * free_slot = NULL;
    for (int i = 0; i < MAX_EVENTS; ++i) {
        if (events[i].event == event) {
            return &events[i];
        }
        if (free_slot == NULL && events[i].event == NULL) {
            free_slot = &events[i];
        }
    }
    if (!create) {
        return NULL;
    }
    if (free_slot == NULL) {
        fail("more than 256 events");
    }
    memset(free_slot, 0, sizeof(*free_slot));
    free_slot->event = event;
    return free_slot;
}

// Applies q's pending copies queued up to seq (all: UINT64_MAX), in queue order.
static void land(queue_t * q, uint64_t seq, int why) {
    size_t kept = 0;
    for (size_t i = 0; i < q->n; ++i) {
        copy_t * c = &q->copies[i];
        if (c->seq > seq) {
            q->copies[kept++] = *c;
            continue;
        }
        if (hash_bytes(c->src, c->size) != c->hash) {
            rewritten++;   // the source changed after the copy was queued
        }
        ((set_t) real[F_SET])(c->dst, c->src, c->offset, c->size);
        landed[why]++;
    }
    q->n = kept;
}

static void land_event(event_t * e, int why) {
    if (e != NULL && e->queue != NULL && e->queue->backend == e->backend) {
        land(e->queue, e->seq, why);
    }
}

// ---- the interposed functions --------------------------------------------------------------

void ggml_backend_tensor_set_async(ggml_backend_t backend, struct ggml_tensor * tensor,
                                   const void * data, size_t offset, size_t size) {
    pthread_mutex_lock(&lock);
    ensure_resolved();
    calls[F_SET_ASYNC]++;
    queue_t * q = queue_of(backend, 1);
    if (q->n == q->cap) {
        q->cap = q->cap ? 2*q->cap : 64;
        q->copies = (copy_t *) realloc(q->copies, q->cap*sizeof(copy_t));
        if (q->copies == NULL) {
            fail("out of memory");
        }
    }
    copy_t c = { tensor, data, offset, size, ++q->seq, hash_bytes(data, size) };
    q->copies[q->n++] = c;
    held++;
    held_bytes += (int64_t) size;
    if (mutation == M_SCRIBBLE && q->waited) {
        memset((void *) data, 0, size);
        scribbled++;
    }
    int64_t pending = 0;
    for (int i = 0; i < MAX_QUEUES; ++i) {
        pending += (int64_t) queues[i].n;
    }
    max_pending = pending > max_pending ? pending : max_pending;
    pthread_mutex_unlock(&lock);
}

void ggml_backend_event_record(ggml_backend_event_t event, ggml_backend_t backend) {
    pthread_mutex_lock(&lock);
    ensure_resolved();
    calls[F_RECORD]++;
    queue_t * q = queue_of(backend, 1);
    event_t * e = event_of(event, 1);
    e->queue = q;
    e->backend = backend;
    e->before = q->last_record;
    e->seq = q->last_record = q->seq;
    ((record_t) real[F_RECORD])(event, backend);
    pthread_mutex_unlock(&lock);
}

void ggml_backend_event_wait(ggml_backend_t backend, ggml_backend_event_t event) {
    pthread_mutex_lock(&lock);
    ensure_resolved();
    calls[F_WAIT]++;
    event_t * e = event_of(event, 0);
    if (e != NULL && e->queue != NULL && e->queue->backend == e->backend) {
        if (e->backend != backend) {
            e->queue->waited = 1;   // a copy lane: another stream waits for it
        }
        if (mutation == M_SKIP_WAIT) {
            skipped_waits++;
        } else if (mutation == M_WRONG_EVENT) {
            redirected_waits++;
            short_waits += e->before < e->seq;   // the redirect left copies behind
            land(e->queue, e->before, L_WAIT);
        } else {
            land(e->queue, e->seq, L_WAIT);
        }
    }
    ((wait_t) real[F_WAIT])(backend, event);
    pthread_mutex_unlock(&lock);
}

void ggml_backend_event_synchronize(ggml_backend_event_t event) {
    pthread_mutex_lock(&lock);
    ensure_resolved();
    calls[F_EV_SYNC]++;
    land_event(event_of(event, 0), L_EV_SYNC);
    ((ev_sync_t) real[F_EV_SYNC])(event);
    pthread_mutex_unlock(&lock);
}

void ggml_backend_synchronize(ggml_backend_t backend) {
    pthread_mutex_lock(&lock);
    ensure_resolved();
    calls[F_SYNC]++;
    queue_t * q = queue_of(backend, 0);
    if (q != NULL) {
        land(q, UINT64_MAX, L_SYNC);
    }
    ((sync_t) real[F_SYNC])(backend);
    pthread_mutex_unlock(&lock);
}

// Work queued on a backend after its own copies sees them (one stream is in order).
static void land_stream(ggml_backend_t backend) {
    queue_t * q = queue_of(backend, 0);
    if (q != NULL) {
        land(q, UINT64_MAX, L_STREAM);
    }
}

int ggml_backend_graph_compute_async(ggml_backend_t backend, struct ggml_cgraph * graph) {
    pthread_mutex_lock(&lock);
    ensure_resolved();
    calls[F_COMPUTE]++;
    land_stream(backend);
    pthread_mutex_unlock(&lock);
    return ((compute_t) real[F_COMPUTE])(backend, graph);
}

void ggml_backend_tensor_get_async(ggml_backend_t backend, const struct ggml_tensor * tensor,
                                   void * data, size_t offset, size_t size) {
    pthread_mutex_lock(&lock);
    ensure_resolved();
    calls[F_GET_ASYNC]++;
    land_stream(backend);
    ((get_async_t) real[F_GET_ASYNC])(backend, tensor, data, offset, size);
    pthread_mutex_unlock(&lock);
}

void ggml_backend_tensor_copy_async(ggml_backend_t src, ggml_backend_t dst,
                                    struct ggml_tensor * from, struct ggml_tensor * to) {
    pthread_mutex_lock(&lock);
    ensure_resolved();
    calls[F_COPY_ASYNC]++;
    land_stream(src);
    land_stream(dst);
    ((copy_async_t) real[F_COPY_ASYNC])(src, dst, from, to);
    pthread_mutex_unlock(&lock);
}

void ggml_backend_free(ggml_backend_t backend) {
    pthread_mutex_lock(&lock);
    ensure_resolved();
    calls[F_FREE]++;
    queue_t * q = queue_of(backend, 0);
    if (q != NULL) {
        land(q, UINT64_MAX, L_FREE);
        free(q->copies);
        memset(q, 0, sizeof(*q));
        for (int i = 0; i < MAX_EVENTS; ++i) {
            if (events[i].queue == q) {
                events[i].queue = NULL;
            }
        }
    }
    ((free_t) real[F_FREE])(backend);
    pthread_mutex_unlock(&lock);
}

void ggml_backend_event_free(ggml_backend_event_t event) {
    pthread_mutex_lock(&lock);
    ensure_resolved();
    calls[F_EV_FREE]++;
    event_t * e = event_of(event, 0);
    if (e != NULL) {
        memset(e, 0, sizeof(*e));
    }
    ((ev_free_t) real[F_EV_FREE])(event);
    pthread_mutex_unlock(&lock);
}

// ---- load and exit -------------------------------------------------------------------------

__attribute__((constructor)) static void late_copy_load(void) {
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&lock, &attr);
    const char * name = getenv("LATE_COPY_MUTATION");
    static const char * const MUTATIONS[] = { "none", "skip_wait", "wrong_event", "scribble" };
    if (name != NULL && name[0] != '\0') {
        int found = -1;
        for (int i = 0; i < 4; ++i) {
            found = strcmp(name, MUTATIONS[i]) == 0 ? i : found;
        }
        if (found < 0) {
            fail("LATE_COPY_MUTATION must be none, skip_wait, wrong_event or scribble");
        }
        mutation = (enum mutation) found;
        mutation_name = MUTATIONS[found];
    }
}

// Counters as JSON (also what the report file holds); returns the length written.
int late_copy_report(char * out, size_t size) {
    pthread_mutex_lock(&lock);
    int64_t pending = 0;
    for (int i = 0; i < MAX_QUEUES; ++i) {
        pending += (int64_t) queues[i].n;
    }
    // the slot cache's own test mutation drops its wait and refills staging early (expected)
    const char * skip = getenv("ROTARY_SLOT_TEST_SKIP_WAIT");
    size_t n = (size_t) snprintf(out, size, "{\"pid\": %d, \"mutation\": \"%s\", \"resolved\": %s, "
                                 "\"slot_test_skip_wait\": %s, \"calls\": {", (int) getpid(),
                                 mutation_name, resolved ? "true" : "false",
                                 skip != NULL && strcmp(skip, "1") == 0 ? "true" : "false");
    for (int i = 0; i < N_INTERPOSED && n < size; ++i) {
        n += (size_t) snprintf(out + n, size - n, "%s\"%s\": %" PRId64, i ? ", " : "", NAMES[i],
                               calls[i]);
    }
    for (int i = 0; i < N_LANDED && n < size; ++i) {
        n += (size_t) snprintf(out + n, size - n, "%s\"%s\": %" PRId64, i ? ", " : "}, \"landed\": {",
                               LANDED[i], landed[i]);
    }
    if (n < size) {
        n += (size_t) snprintf(out + n, size - n,
            "}, \"held\": %" PRId64 ", \"held_bytes\": %" PRId64 ", \"max_pending\": %" PRId64
            ", \"pending_at_exit\": %" PRId64 ", \"rewritten_sources\": %" PRId64
            ", \"scribbled\": %" PRId64 ", \"skipped_waits\": %" PRId64
            ", \"redirected_waits\": %" PRId64 ", \"short_waits\": %" PRId64 "}",
            held, held_bytes, max_pending, pending, rewritten, scribbled, skipped_waits,
            redirected_waits, short_waits);
    }
    pthread_mutex_unlock(&lock);
    return (int) n;
}

__attribute__((destructor)) static void late_copy_exit(void) {
    const char * folder = getenv("LATE_COPY_REPORT");
    if (folder == NULL || folder[0] == '\0') {
        return;
    }
    char text[4096], path[4096];
    late_copy_report(text, sizeof(text));
    snprintf(path, sizeof(path), "%s/late_copy-%d.json", folder, (int) getpid());
    FILE * f = fopen(path, "w");
    if (f != NULL) {
        fprintf(f, "%s\n", text);
        fclose(f);
    }
}
