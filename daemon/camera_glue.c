/* The camera in `dyeref serve`: [camera] from the config, the libcamera
 * shim's eventfd (or, for tests and demos without a camera, a Y4M file
 * played at its frame rate) on the event loop, each low-resolution frame
 * through vision's tracker, its observations handed to fusion, faces read
 * from the full-resolution stream off the loop (daemon/face_reader.c), and
 * the latest telling frame kept so the referee can store it as the throw's
 * snapshot. A missing camera is reported on the health strip, not fatal.
 * This file opens and closes it; the stages are files of their own
 * (daemon/camera_internal.h names them). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/camera_internal.h"
#include "daemon/daemon.h"

/* Everything opened, the config kept. */
static void release(struct dd_camera *g)
{
	/* First: no late face may reach fusion once the camera is gone (the
	 * worker reads copies of its own, so the order is for the sink). */
	dd_face_reader_free(g->reader);
	g->reader = NULL;
	g->io = sd_event_source_disable_unref(g->io);
	dd_timer_free(g->timer);
	g->timer = NULL;
	vis_camera_close(g->cam);
	vis_y4m_close(g->y4m);
	vis_tracker_free(g->trk);
	dd_camera_keep_snapshot(g, NULL, NULL, 0, 0, 0, 0);
	g->cam = NULL;
	g->y4m = NULL;
	g->trk = NULL;
}

/* Takes the calibration to the frames' pixels: it was fitted on a
 * picture of calibrated_size (the sensor's full size, often), the tracker
 * sees g->width x g->height. -EINVAL with why when the two are not
 * one view resized. */
static int fit_calibration(struct dd_camera *g, char *why, size_t whylen)
{
	struct cam_cfg *c = &g->cfg;
	double h[9];

	if (!c->calib_w) {
		if (c->have_h)
			dd_log(DD_LOG_INFO, "camera: no calibrated_size in [camera]: the calibration is "
			       "taken as pixels of the %dx%d frames", g->width, g->height);
		return 0;
	}
	if (c->calib_w == g->width && c->calib_h == g->height)
		return 0;
	if (vis_homography_resized(c->h, c->calib_w, c->calib_h, g->width, g->height, h) < 0) {
		snprintf(why, whylen, "calibrated on %dx%d, frames %dx%d: another shape; calibrate "
			 "on a picture of the frames' shape", c->calib_w, c->calib_h, g->width,
			 g->height);
		return -EINVAL;
	}
	memcpy(c->h, h, sizeof(h));
	dd_log(DD_LOG_INFO, "camera: the calibration of a %dx%d picture taken to %dx%d frames",
	       c->calib_w, c->calib_h, g->width, g->height);
	return 0;
}

#ifndef DYEREF_FNET_CROPS
#define DYEREF_FNET_CROPS "/usr/local/share/dyeref/face-net-crops.bin"	/* vision/module.mk's */
#endif

/* The installed test crops: where this build's PREFIX puts them, else
 * where either usual PREFIX does (a package may build with one PREFIX
 * and install with another). */
static const char *installed_crops(void)
{
	static const char *const where[] = { DYEREF_FNET_CROPS, "/usr/share/dyeref/face-net-crops.bin",
					     "/usr/local/share/dyeref/face-net-crops.bin" };

	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++)
		if (access(where[i], R_OK) == 0)
			return where[i];
	return where[0];	/* the message names the one expected */
}

/* [camera] face_net: the file's net is used only when, on the test crops,
 * it reads at least as many right as the built-in net and no more wrong
 * at 0.9 or more; else the built-in net reads, and g->net_note (the
 * console's) and the log say why. 0, or a negative errno with a message
 * when the file no longer loads (a config error, as at --check-config). */
static int choose_net(struct dd_camera *g, char *err, size_t errlen)
{
	const char *path = g->cfg.face_net;
	const char *crops = g->cfg.face_net_crops;
	struct vis_fnet_score mine, base;
	struct vis_fnet *net;
	char why[200];
	int rc;

	if (!path)
		return 0;
	if (!crops)
		crops = installed_crops();
	rc = vis_fnet_load(path, &net, why, sizeof(why));
	if (rc < 0) {
		snprintf(err, errlen, "camera.face_net: %s", why);
		return rc;
	}
	if (vis_fnet_score(vis_fnet_builtin(), crops, &base, why, sizeof(why)) < 0 ||
	    vis_fnet_score(net, crops, &mine, why, sizeof(why)) < 0) {
		snprintf(g->net_note, sizeof(g->net_note),
			 "face net %s: not checked (%s): kept the built-in net", path, why);
		vis_fnet_free(net);
		dd_log(DD_LOG_WARN, "camera: %s", g->net_note);
		return 0;
	}
	bool better = mine.right >= base.right && mine.sure_wrong <= base.sure_wrong;
	snprintf(g->net_note, sizeof(g->net_note),
		 "face net %s: %d of %d test crops right (%d wrong at >= 0.9), built-in %d (%d): %s",
		 path, mine.right, mine.crops, mine.sure_wrong, base.right, base.sure_wrong,
		 better ? "in use" : "kept the built-in net");
	if (better)
		g->net = net;
	else
		vis_fnet_free(net);
	dd_log(better ? DD_LOG_INFO : DD_LOG_WARN, "camera: %s", g->net_note);
	return 0;
}

/* Leaves the camera out and the daemon running: piezo and console still
 * referee. The strip says what (reason), the console and the log why. */
static void run_without(struct dd_camera *g, const char *reason, const char *why)
{
	release(g);
	dd_health_set(g->health, false, "camera: %s", reason);
	dd_health_detail(g->health, "camera: %s", why);
	dd_log(DD_LOG_WARN, "camera: %s (running without it)", why);
}

/* Opens what [camera] names and starts tracking. 0, also when the camera
 * is left out (run_without: the health item says why); a negative errno
 * with a message for a config error (a file that cannot be played). */
static int start(struct dd_camera *g, sd_event *ev, bool sim, const char *path, char *err,
		 size_t errlen)
{
	char why[256];
	int rc;

	if (sim && !g->cfg.y4m) {
		dd_health_set(g->health, true, "simulated camera");
		return 0;
	}
	if (!g->cfg.enable) {
		dd_health_set(g->health, false, "camera: disabled in the config");
		dd_health_detail(g->health, "camera: disabled in the config (camera.enable in %s)",
				 path ? path : "the config");
		return 0;
	}
	rc = choose_net(g, err, errlen);
	if (rc)
		return rc;
	bd_table_defaults(&g->table);
	if (!g->cfg.have_h && g->cfg.y4m) {
		struct vis_render_scene view;

		/* Rendered frames (dyeref sim --frames) use the renderer's view. */
		vis_render_scene_default(&view);
		if (vis_homography_invert(view.h, g->cfg.h) < 0) {
			snprintf(err, errlen, "camera: the renderer's view cannot be inverted");
			return -EINVAL;
		}
	}
	if (g->cfg.y4m) {
		rc = dd_camera_open_file(g, err, errlen);
		if (rc)
			return rc;	/* a named file that is not there is a config error */
	} else {
		rc = dd_camera_open_device(g, ev, why, sizeof(why));
		if (rc) {	/* the shim may already say whose message it is */
			run_without(g, vis_camera_reason(-rc), strncmp(why, "camera: ", 8) ? why : why + 8);
			return 0;
		}
		/* Frames the tracker cannot place on the table are no use. */
		if (!g->cfg.have_h) {
			run_without(g, "not calibrated", "not calibrated (run dyeref calibrate camera)");
			return 0;
		}
	}
	rc = fit_calibration(g, why, sizeof(why));
	if (rc && g->y4m) {
		snprintf(err, errlen, "camera: %s", why);
		return rc;	/* a file's frames will not change size: a config error */
	}
	if (rc) {
		run_without(g, "calibrated on a picture of another shape", why);
		return 0;
	}
	vis_tracker_cfg_default(&g->tcfg, &g->table, g->cfg.h);
	g->trk = vis_tracker_new(&g->tcfg, g->width, g->height);
	if (!g->trk) {
		rc = -errno;
		snprintf(err, errlen, "camera: tracker for %dx%d frames: %s", g->width, g->height,
			 strerror(errno));
		return rc;
	}
	dd_camera_say_running(g, 0);
	return 0;
}

struct dd_camera *dd_camera_new(struct dd_config *cfg, sd_event *ev, struct dd_clock *clock,
				bool sim, dd_obs_sink sink, void *user,
				struct dd_health_item *health, char *err, size_t errlen)
{
	struct dd_camera *g = calloc(1, sizeof(*g));
	int rc;

	if (!g) {
		snprintf(err, errlen, "camera: out of memory");
		return NULL;
	}
	g->clock = clock;
	g->sink = sink;
	g->user = user;
	g->health = health;
	rc = dd_camera_load_config(cfg, &g->cfg, err, errlen);
	if (rc == 0)
		rc = start(g, ev, sim, cfg->path, err, errlen);
	if (rc) {
		dd_camera_free(g);
		errno = -rc;
		return NULL;
	}
	return g;
}

void dd_camera_free(struct dd_camera *g)
{
	if (!g)
		return;
	release(g);
	vis_fnet_free(g->net);	/* one no reader took (the reader frees its own) */
	free(g);
}
