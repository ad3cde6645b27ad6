/* [camera] of the configuration file: the camera's sizes, its calibration
 * (corners or a homography, and the picture they were taken on) and a
 * video file to play instead of a camera. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/camera_internal.h"

static const char *const corner_keys[4] = {
	"corner_a_left", "corner_a_right", "corner_b_right", "corner_b_left",
};

/* "a,b,c" into n finite doubles; -EINVAL with "file:line: camera.key: why". */
static int get_doubles(struct dd_config *cfg, const char *key, double *out, int n,
		       bool *found, char *err, size_t errlen)
{
	int line = 0;
	const char *v = dd_config_get(cfg, "camera", key, &line);
	const char *p = v;

	*found = v != NULL;
	if (!v)
		return 0;
	for (int i = 0; i < n; i++) {
		char *end;

		errno = 0;
		out[i] = strtod(p, &end);
		if (end == p || errno || !isfinite(out[i]))
			goto bad;
		p = end;
		while (*p == ' ' || *p == '\t')
			p++;
		if (i < n - 1) {
			if (*p != ',')
				goto bad;
			p++;
		}
	}
	if (*p == '\0')
		return 0;
bad:
	snprintf(err, errlen, "%s:%d: camera.%s: needs %d numbers separated by commas, not '%.60s'",
		 cfg->path ? cfg->path : "config", line, key, n, v);
	return -EINVAL;
}

static int get_size(struct dd_config *cfg, const char *key, long min, int *out,
		    char *err, size_t errlen)
{
	long v;
	int rc = dd_config_get_int(cfg, "camera", key, min, VIS_MAX_SIDE, &v, err, errlen);

	if (rc == -ENOENT)
		return 0;
	if (rc)
		return rc;
	*out = (int)v;
	return 0;
}

/* calibrated_size = W,H (what `dyeref calibrate camera` prints): the
 * picture the corners and homography are in pixels of. */
static int get_calibrated_size(struct dd_config *cfg, struct cam_cfg *c, char *err, size_t errlen)
{
	double wh[2];
	bool found;
	int line = 0, rc = get_doubles(cfg, "calibrated_size", wh, 2, &found, err, errlen);

	if (rc || !found)
		return rc;
	for (int i = 0; i < 2; i++)
		if (wh[i] != floor(wh[i]) || wh[i] < 16 || wh[i] > VIS_MAX_SIDE) {
			dd_config_get(cfg, "camera", "calibrated_size", &line);
			snprintf(err, errlen, "%s:%d: camera.calibrated_size: needs the picture's width,height "
				 "in whole pixels (16..%d)", cfg->path ? cfg->path : "config", line, VIS_MAX_SIDE);
			return -EINVAL;
		}
	c->calib_w = (int)wh[0];
	c->calib_h = (int)wh[1];
	return 0;
}

/* [camera] homography = 9 numbers into c, refused when singular. */
static int get_homography(struct dd_config *cfg, struct cam_cfg *c, char *err, size_t errlen)
{
	double hh[9], inv[9];
	bool found;
	int line = 0, rc = get_doubles(cfg, "homography", hh, 9, &found, err, errlen);

	if (rc || !found)
		return rc;
	dd_config_get(cfg, "camera", "homography", &line);
	if (vis_homography_invert(hh, inv) < 0) {
		snprintf(err, errlen, "%s:%d: camera.homography: singular (not a view of the table)",
			 cfg->path, line);
		return -EINVAL;
	}
	memcpy(c->h, hh, sizeof(hh));
	c->have_h = true;
	return 0;
}

/* [camera] y4m = a readable file, or absent. */
static int get_y4m(struct dd_config *cfg, struct cam_cfg *c, char *err, size_t errlen)
{
	int line = 0;

	c->y4m = dd_config_get(cfg, "camera", "y4m", &line);
	if (c->y4m && !c->y4m[0]) {
		snprintf(err, errlen, "%s:%d: camera.y4m: needs a file name", cfg->path, line);
		return -EINVAL;
	}
	if (c->y4m && access(c->y4m, R_OK) < 0) {
		snprintf(err, errlen, "%s:%d: camera.y4m: %s: %s", cfg->path, line, c->y4m, strerror(errno));
		return -EINVAL;
	}
	return 0;
}

/* [camera] face_net = a weights file vis_fnet_load accepts, or absent;
 * face_net_crops = the test crops it is checked on (the installed ones
 * when absent). A file that does not load is a config error, as a y4m
 * file that is not there; whether it is better than the built-in net is
 * the start's business (choose_net in camera_glue.c). */
static int get_face_net(struct dd_config *cfg, struct cam_cfg *c, char *err, size_t errlen)
{
	struct vis_fnet *net;
	char why[320];
	int line = 0;

	c->face_net_crops = dd_config_get(cfg, "camera", "face_net_crops", &line);
	if (c->face_net_crops && !c->face_net_crops[0]) {
		snprintf(err, errlen, "%s:%d: camera.face_net_crops: needs a file name", cfg->path, line);
		return -EINVAL;
	}
	c->face_net = dd_config_get(cfg, "camera", "face_net", &line);
	if (!c->face_net)
		return 0;
	if (!c->face_net[0]) {
		snprintf(err, errlen, "%s:%d: camera.face_net: needs a file name", cfg->path, line);
		return -EINVAL;
	}
	if (vis_fnet_load(c->face_net, &net, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s:%d: camera.face_net: %s", cfg->path, line, why);
		return -EINVAL;
	}
	vis_fnet_free(net);
	return 0;
}

/* Reads and checks [camera] into *c. Every key is read even after a bad
 * one, so that --check-config names that one alone; the checks across
 * keys wait until each key has read cleanly, as a bad value would only
 * make them fail too. */
int dd_camera_load_config(struct dd_config *cfg, struct cam_cfg *c, char *err, size_t errlen)
{
	double corners[4][2], hh[9], table[4][2];
	bool have_corner[4], any = false;
	struct bd_table tb;
	int rc, first = 0, line = 0;
	char why[512];
	long v;

	memset(c, 0, sizeof(*c));
	c->enable = 1;
	vis_camera_cfg_default(&c->cam);
	rc = dd_config_get_bool(cfg, "camera", "enable", &c->enable, why, sizeof(why));
	first = dd_config_keep_first(first, rc == -ENOENT ? 0 : rc, why, err, errlen);
	c->cam.id = dd_config_get(cfg, "camera", "id", NULL);
	rc = get_size(cfg, "low_width", 16, &c->cam.low_width, why, sizeof(why));
	first = dd_config_keep_first(first, rc, why, err, errlen);
	rc = get_size(cfg, "low_height", 16, &c->cam.low_height, why, sizeof(why));
	first = dd_config_keep_first(first, rc, why, err, errlen);
	rc = get_size(cfg, "full_width", 0, &c->cam.full_width, why, sizeof(why));
	first = dd_config_keep_first(first, rc, why, err, errlen);
	rc = get_size(cfg, "full_height", 0, &c->cam.full_height, why, sizeof(why));
	first = dd_config_keep_first(first, rc, why, err, errlen);
	rc = dd_config_get_int(cfg, "camera", "fps", 0, VIS_CAMERA_MAX_FPS, &v, why, sizeof(why));
	if (rc == 0)
		c->cam.fps = (int)v;
	first = dd_config_keep_first(first, rc == -ENOENT ? 0 : rc, why, err, errlen);
	rc = get_calibrated_size(cfg, c, why, sizeof(why));
	first = dd_config_keep_first(first, rc, why, err, errlen);
	rc = get_y4m(cfg, c, why, sizeof(why));
	first = dd_config_keep_first(first, rc, why, err, errlen);
	rc = get_face_net(cfg, c, why, sizeof(why));
	first = dd_config_keep_first(first, rc, why, err, errlen);
	for (int k = 0; k < 4; k++) {
		rc = get_doubles(cfg, corner_keys[k], corners[k], 2, &have_corner[k], why, sizeof(why));
		first = dd_config_keep_first(first, rc, why, err, errlen);
		any = any || have_corner[k];
	}
	rc = get_homography(cfg, c, why, sizeof(why));
	first = dd_config_keep_first(first, rc, why, err, errlen);
	if (first)
		return first;

	if ((c->cam.full_width == 0) != (c->cam.full_height == 0)) {
		dd_config_get(cfg, "camera", c->cam.full_width ? "full_width" : "full_height", &line);
		snprintf(err, errlen, "%s:%d: camera: full_width and full_height go together (both 0: the sensor's size)",
			 cfg->path, line);
		return -EINVAL;
	}
	if (any) {
		for (int k = 0; k < 4; k++)
			if (!have_corner[k]) {
				snprintf(err, errlen, "%s: camera.%s: missing (the four corners go together)",
					 cfg->path, corner_keys[k]);
				return -EINVAL;
			}
		bd_table_defaults(&tb);
		table[0][0] = 0, table[0][1] = 0;
		table[1][0] = 0, table[1][1] = tb.width_m;
		table[2][0] = tb.length_m, table[2][1] = tb.width_m;
		table[3][0] = tb.length_m, table[3][1] = 0;
		if (vis_homography_fit(corners, table, 4, hh) < 0) {
			dd_config_get(cfg, "camera", corner_keys[0], &line);
			snprintf(err, errlen, "%s:%d: camera: the four corners do not outline a table",
				 cfg->path, line);
			return -EINVAL;
		}
		if (!c->have_h)	/* an explicit homography wins */
			memcpy(c->h, hh, sizeof(hh));
		c->have_h = true;
	}
	if (c->calib_w && !c->have_h) {
		dd_config_get(cfg, "camera", "calibrated_size", &line);
		snprintf(err, errlen, "%s:%d: camera.calibrated_size: given without the corners or "
			 "homography it is the size of", cfg->path, line);
		return -EINVAL;
	}
	return 0;
}

int dd_camera_check_config(struct dd_config *cfg, char *err, size_t errlen)
{
	struct cam_cfg c;

	return dd_camera_load_config(cfg, &c, err, errlen);
}
