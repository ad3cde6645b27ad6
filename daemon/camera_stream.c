/* The camera glue's frames in: the libcamera shim's eventfd on the event
 * loop, or a Y4M file played at its frame rate on the daemon's clock,
 * looped, and opened again after it failed. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/camera_internal.h"
#include "daemon/daemon.h"
#include "daemon/obs_time.h"

/* A video file that could not be read is tried again this often (on the
 * daemon's clock): a file put back turns the camera green by itself. */
#define REOPEN_NS 1000000000LL

static int on_frames(sd_event_source *s, int fd, uint32_t revents, void *user)
{
	struct dd_camera *g = user;
	struct vis_image *low = NULL;
	char err[256];
	uint64_t count;
	int rc;

	(void)s;
	(void)revents;
	if (read(fd, &count, sizeof(count)) < 0 && errno != EAGAIN)
		dd_log(DD_LOG_WARN, "camera: eventfd: %s", strerror(errno));
	rc = vis_camera_take(g->cam, VIS_STREAM_LOW, &low, err, sizeof(err));
	if (rc < 0) {
		dd_log(DD_LOG_ERR, "camera: %s", err);
		dd_health_set(g->health, false, "camera: frames stopped (%s)", strerror(-rc));
		dd_health_detail(g->health, "camera: %s", err);
		sd_event_source_set_enabled(g->io, SD_EVENT_OFF);
		return 0;
	}
	if (rc == 1) {
		dd_camera_track(g, low);
		vis_image_free(low);
	}
	return 0;
}

/* Whether the file is the one that failed within its frames (the same
 * inode, size and time): played again it would fail again, so it is
 * tried once it changes. */
static bool unchanged(const struct dd_camera *g)
{
	struct stat st;

	return g->failed_in && stat(g->cfg.y4m, &st) == 0 && st.st_ino == g->failed_st.st_ino &&
	       st.st_dev == g->failed_st.st_dev && st.st_size == g->failed_st.st_size &&
	       st.st_mtim.tv_sec == g->failed_st.st_mtim.tv_sec &&
	       st.st_mtim.tv_nsec == g->failed_st.st_mtim.tv_nsec;
}

/* Opens the file again from its start, with a new tracker (the stream
 * starts again on an empty table). 0, or -errno with why in err: not
 * there, not a video, or frames of another size than the tracker's. */
static int reopen_file(struct dd_camera *g, char *err, size_t errlen)
{
	struct vis_tracker *t;
	int w, h, fn, fd;

	vis_y4m_close(g->y4m);
	g->y4m = vis_y4m_open(g->cfg.y4m, err, errlen);
	if (!g->y4m)
		return errno ? -errno : -EIO;
	vis_y4m_info(g->y4m, &w, &h, &fn, &fd);
	if (w != g->width || h != g->height) {
		snprintf(err, errlen, "%s: %dx%d frames, not the %dx%d it had: restart the daemon",
			 g->cfg.y4m, w, h, g->width, g->height);
		vis_y4m_close(g->y4m);
		g->y4m = NULL;
		return -EINVAL;
	}
	t = vis_tracker_new(&g->tcfg, g->width, g->height);
	if (t) {
		vis_tracker_free(g->trk);
		g->trk = t;
		g->learned = 0;
	}
	return 0;
}

/* The file could not be read: red, and tried again every REOPEN_NS. The
 * first failure is logged, not every try. */
static void file_failed(struct dd_camera *g, const char *err)
{
	if (!g->reopen)
		dd_log(DD_LOG_ERR, "camera: %s (trying it again every %lld s)", err,
		       REOPEN_NS / 1000000000LL);
	dd_health_set(g->health, false, "camera: the video file could not be read");
	dd_health_detail(g->health, "camera: %s", err);
	/* a file open and failing within its frames waits for a change */
	g->failed_in = g->y4m && stat(g->cfg.y4m, &g->failed_st) == 0;
	g->reopen = true;
	dd_timer_arm(g->timer, dd_time_shifted(dd_clock_now(g->clock), REOPEN_NS));
}

/* The file source: the next frame on the daemon's clock, looping at the end
 * (a new tracker each pass: the stream starts again on an empty table). */
static void on_file_frame(void *user)
{
	struct dd_camera *g = user;
	struct vis_image *img = NULL;
	char err[256];
	int rc;

	if (g->reopen && unchanged(g)) {
		dd_timer_arm(g->timer, dd_time_shifted(dd_clock_now(g->clock), REOPEN_NS));
		return;
	}
	/* Tried again from its start, or at the end of a pass: the loop. */
	rc = g->reopen ? 0 : vis_y4m_read(g->y4m, &img, err, sizeof(err));
	if (rc == 0) {
		rc = reopen_file(g, err, sizeof(err));
		if (rc == 0)
			rc = vis_y4m_read(g->y4m, &img, err, sizeof(err));
		if (rc == 0)
			snprintf(err, sizeof(err), "%s: no frames", g->cfg.y4m);
	}
	if (rc != 1) {
		file_failed(g, err);
		return;
	}
	if (g->reopen) {
		dd_log(DD_LOG_INFO, "camera: %s reads again", g->cfg.y4m);
		g->reopen = false;
		g->rate_t0_ns = 0;
		g->file_due_ns = dd_clock_now(g->clock);
		dd_camera_say_running(g, 0);
	}
	/* The frame's due time, not when the loop got to it: a busy loop
	 * must not bunch the frames up and fake the die's speed. */
	img->ts_ns = g->file_due_ns;
	dd_camera_track(g, img);
	vis_image_free(img);
	g->file_due_ns += g->y4m_period_ns;
	dd_timer_arm(g->timer, g->file_due_ns);
}

int dd_camera_open_file(struct dd_camera *g, char *err, size_t errlen)
{
	int fn, fd, rc;
	char why[256];

	g->y4m = vis_y4m_open(g->cfg.y4m, why, sizeof(why));
	if (!g->y4m) {
		rc = errno ? -errno : -EIO;
		snprintf(err, errlen, "camera: %s", why);
		return rc;
	}
	vis_y4m_info(g->y4m, &g->width, &g->height, &fn, &fd);
	g->y4m_period_ns = fn > 0 && fd > 0 ? 1000000000LL * fd / fn : 1000000000LL / 30;
	/* The clock's timers wake within a microsecond: a recorded throw's
	 * observations reach fusion on time, frames never bunched. */
	g->timer = dd_timer_new(g->clock, on_file_frame, g);
	if (!g->timer) {
		rc = -errno;
		snprintf(err, errlen, "camera: timer: %s", strerror(errno));
		return rc;
	}
	g->file_due_ns = dd_clock_now(g->clock);
	dd_timer_arm(g->timer, g->file_due_ns);
	return 0;
}

int dd_camera_open_device(struct dd_camera *g, sd_event *ev, char *err, size_t errlen)
{
	int rc;

	g->cam = vis_camera_open(&g->cfg.cam, err, errlen);
	if (!g->cam)
		return errno ? -errno : -EIO;
	rc = vis_camera_start(g->cam, err, errlen);
	if (rc)
		return rc;
	g->width = g->cfg.cam.low_width;
	g->height = g->cfg.cam.low_height;
	g->reader = dd_face_reader_new(ev, g->clock, g->sink, g->user, err, errlen);
	if (!g->reader)
		return -errno;
	if (dd_face_reader_set_net(g->reader, g->net) == 0)
		g->net = NULL;	/* the reader's: its worker may outlive g */
	dd_camera_keep_rest_frames(g);
	rc = sd_event_add_io(ev, &g->io, vis_camera_fd(g->cam), EPOLLIN, on_frames, g);
	if (rc < 0)
		snprintf(err, errlen, "event loop: %s", strerror(-rc));
	return rc;
}
