/* Benchmark: reading the face of a resting die the camera has located
 * (vis_read_die_near) on rendered rest crops (tests/unit/vis_face_cases.h:
 * open table, the white centre line, beside cups; located up to 1.5 sides
 * off), against the old path measured in the same run: vis_read_face_at
 * at the located point (vis_dice_find on a 3-side crop). Prints read-right
 * rates, unread (confidence below 0.8: sent to review) and wrong faces
 * given at confidence >= 0.8 (silent errors), by place, and the time a
 * read against the peer's and against the 1.5 ms limit.
 *   build/bench/vision_face_near [CROPS [NOISE]]   (default 3000 crops, noise 1) */
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench.h"
#include "tests/unit/vis_face_cases.h"

#define SURE 0.8	/* house.review_below's default */
#define LIMIT_MS 1.5	/* a located die's read at most (issue 29) */

struct tally {
	int n, right, wrong_sure, unread;	/* crops; right at >= SURE; wrong at >= SURE; the rest */
	double t_ns;	/* time reading */
};

static void count(struct tally *t, int rc, const struct vis_die *d, int face)
{
	t->n++;
	if (rc != 0 || d->face < 1 || d->confidence < SURE)
		t->unread++;
	else if (d->face == face)
		t->right++;
	else
		t->wrong_sure++;
}

int main(int argc, char **argv)
{
	int crops = argc > 1 ? atoi(argv[1]) : 3000;
	double noise = argc > 2 ? atof(argv[2]) : 1;
	struct tally neu[FC_PLACES + 1] = { { 0 } }, old[FC_PLACES + 1] = { { 0 } };

	for (int i = 0; i < crops; i++) {
		struct face_case c;
		struct vis_image *img = face_case_render(11, i, noise, &c);
		struct vis_die d;
		char err[256];
		double mid = FACE_CASE_CROP / 2.0, t0;
		int rc;

		if (!img) {
			perror("vision_face_near: render");
			return 1;
		}
		t0 = bench_now_ns();
		rc = vis_read_die_near(img, mid, mid, FACE_CASE_DIE, &d, err, sizeof(err));
		neu[FC_PLACES].t_ns += bench_now_ns() - t0;
		count(&neu[c.place], rc, &d, c.face);
		count(&neu[FC_PLACES], rc, &d, c.face);
		t0 = bench_now_ns();
		rc = vis_read_face_at(img, mid, mid, FACE_CASE_DIE, &d, err, sizeof(err));
		old[FC_PLACES].t_ns += bench_now_ns() - t0;
		count(&old[c.place], rc, &d, c.face);
		count(&old[FC_PLACES], rc, &d, c.face);
		vis_image_free(img);
	}
	printf("rendered rest crops, noise x%.0f, die 32 px, located up to 1.5 sides off\n", noise);
	printf("%-12s %6s | %-32s | %-32s\n", "place", "crops", "vis_read_die_near right/unread/WRONG",
	       "vis_read_face_at right/unread/WRONG");
	for (int p = 0; p <= FC_PLACES; p++) {
		const struct tally *a = &neu[p], *b = &old[p];
		printf("%-12s %6d | %6.2f %% %6.2f %% %4d        | %6.2f %% %6.2f %% %4d\n",
		       p < FC_PLACES ? face_case_place_name[p] : "all", a->n, 100.0 * a->right / a->n,
		       100.0 * a->unread / a->n, a->wrong_sure, 100.0 * b->right / b->n,
		       100.0 * b->unread / b->n, b->wrong_sure);
	}
	/* Dice of every colour and size on a tray: the same counts. */
	struct tally cn = { 0 }, co = { 0 };
	for (int i = 0; i < crops / 3; i++) {
		struct face_case c;
		double u, v, die_px;
		struct vis_image *img = face_case_colour(13, i, &c, &u, &v, &die_px);
		struct vis_die d;
		char err[256];

		if (!img) {
			perror("vision_face_near: render");
			return 1;
		}
		count(&cn, vis_read_die_near(img, u, v, die_px, &d, err, sizeof(err)), &d, c.face);
		count(&co, vis_read_face_at(img, u, v, die_px, &d, err, sizeof(err)), &d, c.face);
		vis_image_free(img);
	}
	printf("%-12s %6d | %6.2f %% %6.2f %% %4d        | %6.2f %% %6.2f %% %4d\n", "any colour", cn.n,
	       100.0 * cn.right / cn.n, 100.0 * cn.unread / cn.n, cn.wrong_sure,
	       100.0 * co.right / co.n, 100.0 * co.unread / co.n, co.wrong_sure);
	printf("time a read: %.0f us (vis_read_die_near), %.0f us (vis_read_face_at): ratio %.2f\n",
	       neu[FC_PLACES].t_ns / crops / 1e3, old[FC_PLACES].t_ns / crops / 1e3,
	       neu[FC_PLACES].t_ns / old[FC_PLACES].t_ns);
	/* Issue 29's limit for a located die, here (a busy machine reads
	 * slow: the ratio to the peer above is the steadier figure). */
	printf("located die: %.2f ms a read, %.2f of the %.1f ms limit\n",
	       neu[FC_PLACES].t_ns / crops / 1e6, neu[FC_PLACES].t_ns / crops / 1e6 / LIMIT_MS,
	       LIMIT_MS);
	return 0;
}
