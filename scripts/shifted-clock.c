// Moves the wall clock of a process by TVGUIDE_CLOCK_SHIFT seconds (LD_PRELOAD), so the test
// suite can prove it passes on any date: `make test-shifted-clock` runs it decades ahead.
// Written by hand because libfaketime's frozen mode stops the event loops' timers and its
// moving mode still reads a config file per call; this shifts CLOCK_REALTIME and nothing else.
// Monotonic clocks are left alone: timers, timeouts and durations are real.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static long long shift_seconds(void) {
    static long long shift = -1;
    if (shift == -1) {
        const char *text = getenv("TVGUIDE_CLOCK_SHIFT");
        shift = text ? atoll(text) : 0;
    }
    return shift;
}

static int is_wall(clockid_t clock) {
    return clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE;
}

int clock_gettime(clockid_t clock, struct timespec *ts) {
    static int (*real)(clockid_t, struct timespec *);
    if (!real) real = dlsym(RTLD_NEXT, "clock_gettime");
    int result = real(clock, ts);
    if (result == 0 && ts && is_wall(clock)) ts->tv_sec += shift_seconds();
    return result;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
    static int (*real)(struct timeval *restrict, void *restrict);
    if (!real) real = dlsym(RTLD_NEXT, "gettimeofday");
    int result = real(tv, tz);
    if (result == 0 && tv) tv->tv_sec += shift_seconds();
    return result;
}

time_t time(time_t *out) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    if (out) *out = now.tv_sec;
    return now.tv_sec;
}
