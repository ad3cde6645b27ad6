// Benchmark: detection and tracking on 640x360 frames (the low-resolution
// stream), frames per second of vis_tracker_feed against the same steps
// written with OpenCV in the tracker's own 8-bit types, and against a plain
// memcpy of each frame (the memory limit), all in this one run on the same
// rendered frames of a two-dice throw, at renderer noise sigma 2 (the
// default), 4 and 6 grey levels: the tracker skips rows with no foreground
// (no channel differs by more than a third of its threshold), and noise
// decides how many rows those are. A benchmark peer only: built by
// `make bench` (vision/module.mk), never part of dyeref.
//
// The OpenCV peer does per frame what vis_tracker_feed does (vision/track.c),
// in the same types: the light check (sum of every 8th row), per-channel
// absolute difference to an 8-bit background, the three channels' sum
// saturated at 255, foreground at sum > thr, 4-connected components with
// their stats, and on an eighth of the rows (every 8th, a phase a frame)
// the running average at 8 times the rate into a 16-bit (8.8) background
// where the sum is at most thr / 3, then rounded back into the 8-bit one.
// It leaves out the tracker's shadow test of each foreground pixel and
// everything after the blobs (tracks, contacts): both favour OpenCV.
//
// The three take turns, REPEATS rounds of one pass over the frames each,
// each pass timed in chunks of CHUNK frames; each contestant's time is the
// sum over chunks of its fastest time for that chunk (on this shared
// machine a burst from another job then costs one chunk of one round).
//   build/bench/vision_opencv [REPEATS]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

extern "C" {
#include "vision/vision.h"
#include "tests/support/two_dice_throw.h"
}

static double now_s()
{
	using namespace std::chrono;
	return duration<double>(steady_clock::now().time_since_epoch()).count();
}

enum { FRAMES = 180, FPS = 120, CHUNK = 20, NCHUNK = FRAMES / CHUNK };

// Rows phase, phase + 8, ... of m: a view, no copy.
static cv::Mat every8th(const cv::Mat &m, int phase)
{
	return cv::Mat((m.rows - phase + 7) / 8, m.cols, m.type(), (void *)m.ptr(phase), m.step[0] * 8);
}

static int run(double sigma, int repeats)
{
	struct vis_render_scene s;
	vis_render_scene_default(&s);
	s.noise_sigma = sigma;
	std::vector<struct vis_image *> imgs;
	char err[256];
	struct vis_image *empty;
	if (vis_render(&s, &empty, err, sizeof err)) {
		fprintf(stderr, "vision_opencv: %s\n", err);
		return 1;
	}
	// The golden test's throw (tests/support/two_dice_throw.h).
	struct two_dice_throw thr_;
	two_dice_throw_start(&thr_);
	for (int f = 0; f < FRAMES; f++) {
		s.seed = 1000 + f;
		two_dice_throw_frame(&thr_, &s, f, FPS);
		struct vis_image *img;
		if (vis_render(&s, &img, err, sizeof err)) {
			fprintf(stderr, "vision_opencv: %s\n", err);
			return 1;
		}
		img->ts_ns = (int64_t)f * 1000000000LL / FPS;
		imgs.push_back(img);
	}
	const int w = s.width, h = s.height;
	size_t bytes = empty->stride * (size_t)h;

	double inv[9];
	vis_homography_invert(s.h, inv);
	struct vis_tracker_cfg cfg;
	vis_tracker_cfg_default(&cfg, &s.table, inv);
	// The tracker's own figures (vision/track.c, vis_tracker_feed).
	const int thr = cfg.diff_threshold * 3 / 2, thr3 = thr / 3;
	int k8 = (int)(8 * cfg.bg_rate * 256 + 0.5);
	k8 = k8 > 255 ? 255 : k8;
	const double a = k8 / 256.0;
	int obs_total = 0;
	long comps = 0, fg_px = 0;
	std::vector<uint8_t> dst(bytes);
	double best_ours[NCHUNK], best_ocv[NCHUNK], best_copy[NCHUNK];
	for (int c = 0; c < NCHUNK; c++)
		best_ours[c] = best_ocv[c] = best_copy[c] = 1e30;
	auto keep = [](double *best, int c, double &t0) {
		double t1 = now_s();
		best[c] = t1 - t0 < best[c] ? t1 - t0 : best[c];
		t0 = t1;
	};
	double light = 0;
	for (int r = 0; r < repeats; r++) {
		// Ours: the per-frame path (a new tracker's set-up not timed).
		struct vis_tracker *t = vis_tracker_new(&cfg, w, h);
		vis_tracker_learn(t, empty);
		double t0 = now_s();
		for (int f = 0; f < FRAMES; f++) {
			struct vis_obs o[16];
			int n = vis_tracker_feed(t, imgs[f], o, 16);
			obs_total += n > 0 ? n : 0;
			if ((f + 1) % CHUNK == 0)
				keep(best_ours, f / CHUNK, t0);
		}
		vis_tracker_free(t);

		// OpenCV: the same steps on the same RGB frames, 8 and 16 bits.
		cv::Mat bg8 = cv::Mat(h, w, CV_8UC3, empty->data, empty->stride).clone(), bg16;
		bg8.convertTo(bg16, CV_16UC3, 256);
		cv::Mat diff, sum, fg, labels, stats, cents, upd, step16;
		double bg_light = 0;
		double tc = now_s();	// the set-up above is not timed either
		for (int f = 0; f < FRAMES; f++) {
			struct vis_image *img = imgs[f];
			cv::Mat frame(h, w, CV_8UC3, img->data, img->stride);
			int phase = f & 7;
			light += cv::sum(every8th(frame, 0))[0];
			if (phase == 1)	// the model's side, once it has learnt
				bg_light = cv::sum(every8th(bg8, 0))[0];
			cv::absdiff(frame, bg8, diff);
			cv::transform(diff, sum, cv::Matx13f(1, 1, 1));	// 8-bit out: saturated
			cv::threshold(sum, fg, thr, 1, cv::THRESH_BINARY);
			comps += cv::connectedComponentsWithStats(fg, labels, stats, cents, 4, CV_32S) - 1;
			fg_px += cv::countNonZero(fg);
			cv::Mat f8 = every8th(frame, phase), b16 = every8th(bg16, phase), b8 = every8th(bg8, phase);
			cv::threshold(every8th(sum, phase), upd, thr3, 255, cv::THRESH_BINARY_INV);
			cv::addWeighted(f8, 256 * a, b16, 1 - a, 0, step16, CV_16U);
			step16.copyTo(b16, upd);
			b16.convertTo(b8, CV_8U, 1 / 256.0);
			if ((f + 1) % CHUNK == 0)
				keep(best_ocv, f / CHUNK, tc);
		}
		light += bg_light;

		// memcpy of each frame: the memory limit.
		t0 = now_s();
		for (int f = 0; f < FRAMES; f++) {
			memcpy(dst.data(), imgs[f]->data, bytes);
			__asm__ volatile("" : : "r"(dst.data()) : "memory");
			if ((f + 1) % CHUNK == 0)
				keep(best_copy, f / CHUNK, t0);
		}
	}
	double sum_ours = 0, sum_ocv = 0, sum_copy = 0;
	for (int c = 0; c < NCHUNK; c++) {
		sum_ours += best_ours[c];
		sum_ocv += best_ocv[c];
		sum_copy += best_copy[c];
	}
	double ours = FRAMES / sum_ours, ocv = FRAMES / sum_ocv, copy = FRAMES / sum_copy;

	printf("noise sigma %.0f: tracking 640x360 RGB, %d frames, best of %d rounds a %d-frame chunk: dyeref %.0f fps, "
	       "OpenCV same steps in 8/16 bits %.0f fps (dyeref %.2fx OpenCV; target > 1), memcpy %.0f fps "
	       "(dyeref at %.2f of memcpy, %.1fx slower; target within 5x); %d observations; OpenCV per frame: "
	       "%.1f components, %.0f foreground pixels%s\n",
	       sigma, FRAMES, repeats, (int)CHUNK, ours, ocv, ours / ocv, copy, ours / copy, copy / ours,
	       obs_total / repeats, comps / (double)repeats / FRAMES, fg_px / (double)repeats / FRAMES,
	       light > 0 ? "" : " (no light?)");
	for (auto *img : imgs)
		vis_image_free(img);
	vis_image_free(empty);
	return 0;
}

int main(int argc, char **argv)
{
	int repeats = argc > 1 ? atoi(argv[1]) : 10;
	static const double sigmas[] = { 2, 4, 6 };
	for (double sg : sigmas)
		if (run(sg, repeats))
			return 1;
	return 0;
}
