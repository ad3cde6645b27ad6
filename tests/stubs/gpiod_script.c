/* Scripted edges for the libgpiod stubs (gpiod_stub.h): a test's file of
 * edges, read and checked here, and played in real time through timerfds
 * that the stubs hand out as their event descriptors, so the code under
 * test waits on them as on the kernel's. Each edge is stamped with its
 * scripted time and handed over with those of the same instant only, in
 * the script's order, so what the code under test reads, and in which
 * reads, is the script's and not the machine's speed. Shared by both
 * stubs' versions. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "tests/stubs/gpiod_stub.h"

#define SCRIPT_LINE_MAX 256		/* bytes of a script line, without its newline */
#define DELAY_MS_MAX 3600000LL		/* one delay: an hour */
#define DELAY_DECIMALS 6		/* nanoseconds */
#define SYNTAX "expected OFFSET rising|falling DELAY_MS"

static struct {
	bool on;			/* a script was loaded */
	bool started;			/* its clock runs */
	int64_t base_ns;		/* CLOCK_MONOTONIC at the script's time 0 */
	bool has_now;			/* a "now" line was read */
	int64_t now_ns;			/* the script's time at the first request */
	uint64_t held;			/* lines a stub's descriptor watches (bit i: offset i) */
	size_t first;			/* ev[0..first) are all taken */
	size_t n;			/* edges in ev */
	struct gpiod_stub_edge ev[STUB_MAX_SCRIPT];	/* in time order; at_ns from base */
	bool taken[STUB_MAX_SCRIPT];	/* handed to a stub */
} script;

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void gpiod_stub_script_clear(void)
{
	memset(&script, 0, sizeof(script));
}

bool gpiod_stub_script_on(void)
{
	return script.on;
}

/* One line of the file into buf (NUL-terminated, without its newline):
 * 1, 0 at the end, -1 when it is longer than SCRIPT_LINE_MAX or holds a
 * NUL byte (*why says which; the rest of the line is skipped). */
static int read_line(FILE *f, char buf[SCRIPT_LINE_MAX + 1], const char **why)
{
	size_t n = 0;
	int c;

	*why = NULL;
	while ((c = getc(f)) != EOF && c != '\n') {
		if (c == '\0' && !*why)
			*why = "holds a NUL byte";
		else if (n == SCRIPT_LINE_MAX && !*why)
			*why = "longer than 256 bytes";
		else if (n < SCRIPT_LINE_MAX)
			buf[n++] = (char)c;
	}
	buf[n] = '\0';
	if (c == EOF && n == 0 && !*why)
		return 0;
	return *why ? -1 : 1;
}

/* "0".."N" (at most 9 digits) into *v; false for anything else. */
static bool parse_uint(const char *s, long long *v)
{
	size_t n = strspn(s, "0123456789");

	if (n == 0 || n > 9 || s[n])
		return false;
	*v = 0;
	for (size_t i = 0; i < n; i++)
		*v = *v * 10 + (s[i] - '0');
	return true;
}

/* Milliseconds with up to DELAY_DECIMALS decimals into ns; false for
 * anything else, or beyond DELAY_MS_MAX. */
static bool parse_delay(const char *s, int64_t *ns)
{
	char whole[16];
	const char *dot = strchr(s, '.');
	size_t nw = dot ? (size_t)(dot - s) : strlen(s);
	long long ms, frac = 0;
	size_t nf = 0;

	if (nw >= sizeof(whole))
		return false;
	memcpy(whole, s, nw);
	whole[nw] = '\0';
	if (!parse_uint(whole, &ms) || ms > DELAY_MS_MAX)
		return false;
	if (dot) {
		nf = strlen(dot + 1);
		if (nf == 0 || nf > DELAY_DECIMALS || !parse_uint(dot + 1, &frac))
			return false;
		for (size_t i = nf; i < DELAY_DECIMALS; i++)
			frac *= 10;
		if (ms == DELAY_MS_MAX && frac > 0)
			return false;
	}
	*ns = (int64_t)ms * 1000000LL + frac;
	return true;
}

/* One script line's edge (comment and blanks already gone) into *e, at
 * *t_ns plus its delay; 0, or -1 with why in err. */
static int parse_edge(char *text, struct gpiod_stub_edge *e, int64_t *t_ns, char *err, size_t errlen)
{
	static const char *const blank = " \t\r";
	char *save = NULL, *off = strtok_r(text, blank, &save);
	char *edge = strtok_r(NULL, blank, &save), *delay = strtok_r(NULL, blank, &save);
	long long v;
	int64_t d;

	if (!delay) {
		snprintf(err, errlen, SYNTAX);
		return -1;
	}
	if (strtok_r(NULL, blank, &save)) {
		snprintf(err, errlen, SYNTAX ", and nothing after it");
		return -1;
	}
	if (!parse_uint(off, &v) || v >= (long long)gpiod_stub.num_lines || v >= STUB_MAX_LINES) {
		snprintf(err, errlen, "offset '%.32s' is not a line of the fake chip (0..%u)", off,
			 (gpiod_stub.num_lines < STUB_MAX_LINES ? gpiod_stub.num_lines : STUB_MAX_LINES) - 1);
		return -1;
	}
	e->offset = (unsigned)v;
	if (!strcmp(edge, "rising"))
		e->rising = true;
	else if (!strcmp(edge, "falling"))
		e->rising = false;
	else {
		snprintf(err, errlen, "edge '%.32s' is not rising or falling", edge);
		return -1;
	}
	if (!parse_delay(delay, &d)) {
		snprintf(err, errlen, "delay '%.32s': expected milliseconds, 0 to %lld, with at most %d "
			 "decimals", delay, DELAY_MS_MAX, DELAY_DECIMALS);
		return -1;
	}
	*t_ns += d;
	e->at_ns = *t_ns;
	return 0;
}

/* Whether a script line (comment gone, not blank) is a "now" line. */
static bool is_now(const char *text)
{
	text += strspn(text, " \t\r");
	return !strncmp(text, "now", 3) && strchr(" \t\r", text[3]);
}

/* A "now" line: the first request comes its delay after the edge before
 * it (t_ns); 0, or -1 with why in err. */
static int parse_now(char *text, int64_t t_ns, char *err, size_t errlen)
{
	static const char *const blank = " \t\r";
	char *save = NULL, *delay;
	int64_t d;

	strtok_r(text, blank, &save);
	delay = strtok_r(NULL, blank, &save);
	if (!delay || strtok_r(NULL, blank, &save)) {
		snprintf(err, errlen, "expected now DELAY_MS");
		return -1;
	}
	if (script.has_now) {
		snprintf(err, errlen, "a second now line");
		return -1;
	}
	if (!parse_delay(delay, &d)) {
		snprintf(err, errlen, "delay '%.32s': expected milliseconds, 0 to %lld, with at most %d "
			 "decimals", delay, DELAY_MS_MAX, DELAY_DECIMALS);
		return -1;
	}
	script.has_now = true;
	script.now_ns = t_ns + d;
	return 0;
}

int gpiod_stub_script_load(const char *path, char *err, size_t errlen)
{
	char buf[SCRIPT_LINE_MAX + 1], why[160];
	const char *bad;
	int64_t t_ns = 0;
	int line = 0, got, e;
	FILE *f;

	gpiod_stub_script_clear();
	f = fopen(path, "r");
	if (!f) {
		e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	while ((got = read_line(f, buf, &bad)) != 0) {
		char *hash;

		line++;
		if (got < 0) {
			snprintf(why, sizeof(why), "%s", bad);
			goto refuse;
		}
		if ((hash = strchr(buf, '#')))
			*hash = '\0';
		if (buf[strspn(buf, " \t\r")] == '\0')
			continue;
		if (is_now(buf)) {
			if (parse_now(buf, t_ns, why, sizeof(why)) < 0)
				goto refuse;
			continue;
		}
		if (script.n == STUB_MAX_SCRIPT) {
			snprintf(why, sizeof(why), "more than %d edges", STUB_MAX_SCRIPT);
			goto refuse;
		}
		if (parse_edge(buf, &script.ev[script.n], &t_ns, why, sizeof(why)) < 0)
			goto refuse;
		script.n++;
	}
	if (ferror(f)) {
		e = errno ? errno : EIO;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		fclose(f);
		gpiod_stub_script_clear();
		return -e;
	}
	fclose(f);
	script.on = true;
	return 0;

refuse:
	snprintf(err, errlen, "%s:%d: %s", path, line, why);
	fclose(f);
	gpiod_stub_script_clear();
	return -EINVAL;
}

void gpiod_stub_script_start(void)
{
	if (script.on && !script.started) {
		int64_t now = mono_ns();

		script.started = true;
		/* Never before the clock's 0: an edge is stamped after it. */
		script.base_ns = now > script.now_ns ? now - script.now_ns : 0;
	}
}

static bool on_lines(unsigned offset, uint64_t lines)
{
	return offset < 64 && (lines >> offset & 1);
}

size_t gpiod_stub_script_take(uint64_t lines, struct gpiod_stub_edge *out, size_t cap)
{
	size_t i, n = 0;

	if (!script.started || cap == 0)
		return 0;
	while (script.first < script.n && script.taken[script.first])
		script.first++;
	/* The script's next edge that a descriptor watches (on another line
	 * none does, it is never seen). */
	for (i = script.first; i < script.n; i++)
		if (!script.taken[i] && on_lines(script.ev[i].offset, script.held))
			break;
	if (i == script.n || !on_lines(script.ev[i].offset, lines) ||
	    script.base_ns + script.ev[i].at_ns > mono_ns())
		return 0;
	/* With it, the edges right after it at the same time on lines: the
	 * kernel queues edges of one instant together. */
	for (int64_t at = script.ev[i].at_ns;
	     n < cap && i < script.n && script.ev[i].at_ns == at && on_lines(script.ev[i].offset, lines);
	     i++) {
		script.taken[i] = true;
		out[n] = script.ev[i];
		out[n++].at_ns += script.base_ns;
	}
	return n;
}

/* Arms fd for the next edge not yet taken on lines (disarms when there is
 * none). 0, or -1 with errno. */
static int arm(int fd, uint64_t lines)
{
	struct itimerspec when;

	memset(&when, 0, sizeof(when));
	for (size_t i = 0; i < script.n; i++) {
		int64_t at;

		if (script.taken[i] || !on_lines(script.ev[i].offset, lines))
			continue;
		/* Never 0, which would disarm: an edge due at once fires at once. */
		at = script.base_ns + script.ev[i].at_ns;
		at = at > 0 ? at : 1;
		when.it_value.tv_sec = at / 1000000000LL;
		when.it_value.tv_nsec = at % 1000000000LL;
		break;
	}
	return timerfd_settime(fd, TFD_TIMER_ABSTIME, &when, NULL);
}

int gpiod_stub_script_fd(uint64_t lines)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);

	if (fd >= 0 && arm(fd, lines) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	if (fd >= 0)
		script.held |= lines;
	return fd;
}

void gpiod_stub_script_release(uint64_t lines)
{
	script.held &= ~lines;
}

void gpiod_stub_drained(int fd, uint64_t lines)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) < 0) {
		/* already clear */
	}
	if (script.on)
		arm(fd, lines);
}
