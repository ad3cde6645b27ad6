/* dyeref dice IMAGE...: reads the dice faces in images, one JSON object a
 * line: {"image":..., "dice":[{"face":5,"x":..,"y":..,"confidence":..}],
 * "unreadable":[{"x":..,"y":..}]}. "unreadable" holds the dice found whose
 * face could not be read: a tray's official then knows a die is missing
 * from "dice" and where, instead of counting fewer dice than were rolled.
 * Every image is read before anything is printed, so a bad file leaves
 * stdout empty (exit 2, one line naming it on stderr). --face-net FILE:
 * that weights file's net instead of the built-in one, as given (no
 * check on the test crops: the CLI is where a net is tried out). */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/daemon.h"
#include "vision/vision.h"

#define MAX_DICE 512	/* per image; a tray photo has a few dozen */

/* One image's line, or NULL with a message in err. */
static char *dice_line(const char *path, const struct vis_fnet *net, int *status, char *err,
		       size_t errlen)
{
	struct vis_image *img = NULL;
	struct vis_die *dice = NULL;
	struct vis_dice_params prm;
	json_t *obj = NULL, *arr = NULL, *unread = NULL;
	char *line = NULL;
	int r = vis_image_load(path, &img, err, errlen);
	if (r) {
		/* Missing or unreadable files and malformed images are bad
		 * input; only memory is the system's failure. */
		*status = r == -ENOMEM ? DD_EXIT_FAIL : DD_EXIT_USAGE;
		return NULL;
	}
	dice = calloc(MAX_DICE, sizeof(*dice));
	if (!dice) {
		snprintf(err, errlen, "%s: out of memory", path);
		*status = DD_EXIT_FAIL;
		goto free_img;
	}
	vis_dice_params_default(&prm);
	prm.keep_unreadable = 1;
	prm.net = net;
	int n = vis_dice_find(img, &prm, dice, MAX_DICE, err, errlen);
	if (n < 0) {
		char why[128];

		/* The reader's message says what is wrong, not with which file. */
		snprintf(why, sizeof(why), "%.*s", (int)sizeof(why) - 1, err);
		snprintf(err, errlen, "%s: %s", path, why);
		*status = n == -ENOMEM ? DD_EXIT_FAIL : DD_EXIT_USAGE;
		goto free_dice;
	}
	if (n > MAX_DICE)
		n = MAX_DICE;
	obj = json_object();
	arr = json_array();
	unread = json_array();
	if (!obj || !arr || !unread)
		goto oom;
	if (json_object_set_new(obj, "image", json_string(path)))
		goto oom;
	for (int i = 0; i < n; i++) {
		double x = round(dice[i].x * 10) / 10, y = round(dice[i].y * 10) / 10;
		json_t *d = dice[i].face ? json_pack("{s:i, s:f, s:f, s:f}", "face", dice[i].face,
						     "x", x, "y", y, "confidence",
						     round(dice[i].confidence * 100) / 100)
					 : json_pack("{s:f, s:f}", "x", x, "y", y);
		if (!d || json_array_append_new(dice[i].face ? arr : unread, d))
			goto oom;
	}
	if (json_object_set(obj, "dice", arr) || json_object_set(obj, "unreadable", unread))
		goto oom;
	line = json_dumps(obj, JSON_COMPACT | JSON_REAL_PRECISION(6));
	if (!line)
		goto oom;
	goto free_json;
oom:
	snprintf(err, errlen, "%s: out of memory", path);
	*status = DD_EXIT_FAIL;
free_json:
	json_decref(unread);
	json_decref(arr);
	json_decref(obj);
free_dice:
	free(dice);
free_img:
	vis_image_free(img);
	return line;
}

int dd_cmd_dice(int argc, char **argv)
{
	static const char usage[] =
		"usage: dyeref dice [--face-net FILE] IMAGE...  (PNG, JPEG or binary PGM/PPM)";
	struct vis_fnet *net = NULL;
	int status = DD_EXIT_OK, first = 1;
	char **lines = NULL;

	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("%s\n", usage);
		return DD_EXIT_OK;
	}
	if (argc >= 2 && !strcmp(argv[1], "--face-net")) {
		char err[512];

		if (argc < 3) {
			dd_log(DD_LOG_ERR, "dice: --face-net needs a weights file");
			return DD_EXIT_USAGE;
		}
		if (vis_fnet_load(argv[2], &net, err, sizeof(err)) < 0) {
			dd_log(DD_LOG_ERR, "dice: %s", err);
			return DD_EXIT_USAGE;
		}
		first = 3;
	}
	if (argc <= first) {
		dd_log(DD_LOG_ERR, "%s", usage);
		status = DD_EXIT_USAGE;
		goto free_net;
	}
	lines = calloc((size_t)argc, sizeof(*lines));
	if (!lines) {
		dd_log(DD_LOG_ERR, "dice: out of memory");
		status = DD_EXIT_FAIL;
		goto free_net;
	}
	for (int i = first; i < argc; i++) {
		char err[512];
		lines[i] = dice_line(argv[i], net, &status, err, sizeof err);
		if (!lines[i]) {
			dd_log(DD_LOG_ERR, "%s", err);
			goto free_lines;
		}
	}
	for (int i = first; i < argc; i++)
		printf("%s\n", lines[i]);
	if (fflush(stdout)) {
		dd_log(DD_LOG_ERR, "dice: writing stdout: %s", strerror(errno));
		status = DD_EXIT_FAIL;
	}
free_lines:
	for (int i = first; i < argc; i++)
		free(lines[i]);
	free(lines);
free_net:
	vis_fnet_free(net);
	return status;
}
