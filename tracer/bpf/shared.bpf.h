/* What every dlgen BPF object shares: the ring buffer, the traced-tgid set and the drop counters.
 *
 * The tracer is one object linked from one program file per concern (proc.bpf.c, syscalls.bpf.c,
 * uring.bpf.c, block.bpf.c, faults.bpf.c; `bpftool gen object`), so these are declared here and
 * defined once per object with DL_DEFINE_SHARED_MAPS(): by proc.bpf.c in the tracer (it keeps the
 * traced set), by cuda.bpf.c in its own object. User space loads the tracer first and makes the
 * CUDA object reuse its maps (bpf_map__reuse_fd), so one ring carries all records in one order and
 * the tree followed by proc.bpf.c's fork/exit programs filters every probe. The map types are
 * named so that a declaration and its definition are the same type (the linker checks that they
 * match). Include after vmlinux.h and events.h. */
#ifndef DLGEN_SHARED_BPF_H
#define DLGEN_SHARED_BPF_H

typedef struct {
  __uint(type, BPF_MAP_TYPE_RINGBUF);
  __uint(max_entries, 32 << 20); /* resized by user space before load */
} dl_events_map;

/* Hash maps are not preallocated: preallocating 65536-entry maps cost ~10 ms of every capture's
 * start, and these see few entries (traced processes, requests in flight). */
typedef struct {
  __uint(type, BPF_MAP_TYPE_HASH);
  __uint(max_entries, 16384);
  __uint(map_flags, BPF_F_NO_PREALLOC);
  __type(key, __u32);   /* tgid */
  __type(value, __u8);
} dl_tgids_map;

/* Drops, per CPU, indexed by enum dl_lost_reason (events.h): every record or request the programs
 * give up on is counted here, never dropped silently. */
typedef struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
  __uint(max_entries, DL_LOST_NR);
  __type(key, __u32);
  __type(value, __u64);
} dl_lost_map;

extern dl_events_map events SEC(".maps");
extern dl_tgids_map tgids SEC(".maps");
extern dl_lost_map lost SEC(".maps");
/* Wake the reader only once this much data is waiting (it also polls on a short timer): one
 * wakeup per record would cost the traced program a context switch per syscall. Set by user
 * space before load. */
extern const volatile __u64 wakeup_bytes;

/* The definitions, in exactly one program file of each object. */
#define DL_DEFINE_SHARED_MAPS()             \
  dl_events_map events SEC(".maps");        \
  dl_tgids_map tgids SEC(".maps");          \
  dl_lost_map lost SEC(".maps");            \
  const volatile __u64 wakeup_bytes = 256 << 10

static __always_inline void count_lost(__u32 reason)
{
  __u64 *n = bpf_map_lookup_elem(&lost, &reason);
  if (n)
    *n += 1;
}

/* Wake the reader when this record (already reserved, so counted in AVAIL_DATA) takes the waiting
 * data across a multiple of wakeup_bytes: at most one wakeup per wakeup_bytes written. Waking on
 * every record while the backlog stays above the mark cost an APIC write (a VM exit) per syscall:
 * 20% of the traced program's time in a 1M-pread loop. A crossing missed to a race (another CPU's
 * reserve or the reader's consume in between) is caught by the reader's 50 ms poll timeout. */
static __always_inline __u64 wakeup_flag(__u64 record_bytes)
{
  __u64 avail = bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA);
  __u64 before = avail > record_bytes + 8 ? avail - record_bytes - 8 : 0; /* + record header */
  return avail / wakeup_bytes != before / wakeup_bytes ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

static __always_inline int traced(__u32 tgid)
{
  return bpf_map_lookup_elem(&tgids, &tgid) != NULL;
}

#endif
