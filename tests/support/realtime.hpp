#pragma once
// The shell prefix that runs a command at real-time priority (SCHED_FIFO 1) where this host allows
// it, and as it is elsewhere. The e2e tests that judge a real program's timing run both the
// original (its DataLoader workers inherit the policy) and the replay this way, so that another
// job on this 2-core machine does not slow one side and fail a timing row: seen with two builds
// running beside the suite (recipe h5: epoch_time 0.178 vs 0.135 s). See tests/compare/
// eval_e2e_test.cpp for the measurement under 3-4 busy loops.
#define DLGEN_RT_PREFIX "$(chrt -f 1 true 2>/dev/null && echo chrt -f 1) "
