// vision: the libcamera shim, the project's only C++. Everything libcamera
// stays in this file behind vision.h's extern "C" functions; each catches
// every exception, so none crosses into C. libcamera's completion slot runs
// on libcamera's own thread: it only queues the request and writes the
// eventfd; the event loop takes frames in vis_camera_take().
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include <libcamera/camera.h>
#include <libcamera/camera_manager.h>
#include <libcamera/control_ids.h>
#include <libcamera/controls.h>
#include <libcamera/formats.h>
#include <libcamera/framebuffer_allocator.h>
#include <libcamera/logging.h>
#include <libcamera/request.h>
#include <libcamera/stream.h>

extern "C" {
#include "vision/vision.h"
}

using namespace libcamera;

namespace {

// One frame buffer's planes and the mappings of the dmabufs holding them:
// libcamera may put all planes in one dmabuf or each in its own.
struct BufferMaps {
	std::vector<vis_fb_plane> planes;	// libcamera's planes, each naming its mapping
	std::vector<vis_fb_map> plan;	// one per distinct dmabuf
	std::vector<void *> addr;	// mmap of plan[k], same index
};

}  // namespace

struct vis_camera {
	std::unique_ptr<CameraManager> manager;	// started in open
	std::shared_ptr<Camera> camera;	// acquired
	std::unique_ptr<CameraConfiguration> config;	// two streams
	std::unique_ptr<FrameBufferAllocator> allocator;	// buffers of both streams
	std::vector<std::unique_ptr<Request>> requests;	// one per buffer pair
	std::map<const FrameBuffer *, BufferMaps> maps;	// mmapped planes
	std::mutex lock;	// guards done
	std::deque<Request *> done;	// completed, not yet taken
	Request *held = nullptr;	// newest taken: both streams readable until the next
	int efd = -1;	// eventfd to the loop
	int fps = 0;	// asked for at start (vis_camera_frame_durations)
	bool acquired = false;	// camera->acquire() succeeded
	bool started = false;	// camera->start() succeeded

	void completed(Request *req)
	{
		if (req->status() == Request::RequestCancelled)
			return;
		{
			std::lock_guard<std::mutex> g(lock);
			done.push_back(req);
		}
		uint64_t one = 1;
		ssize_t r = write(efd, &one, sizeof one);
		(void)r;	// a full counter already wakes the loop
	}
};

static void set_err(char *err, size_t errlen, const char *fmt, const char *arg = "")
{
	if (err && errlen)
		snprintf(err, errlen, fmt, arg);
}

static void teardown(vis_camera *c)
{
	if (c->started)
		c->camera->stop();
	for (auto &m : c->maps)
		for (size_t k = 0; k < m.second.addr.size(); k++)
			munmap(m.second.addr[k], m.second.plan[k].len);
	c->maps.clear();
	c->requests.clear();
	c->allocator.reset();
	if (c->acquired)
		c->camera->release();
	c->camera.reset();
	c->config.reset();
	if (c->manager)
		c->manager->stop();
	c->manager.reset();
	if (c->efd >= 0)
		close(c->efd);
}

static bool plane_fits(const BufferMaps &bm, int i, size_t stride, size_t row_bytes, size_t rows,
		       char *err, size_t errlen)
{
	const vis_fb_plane &p = bm.planes[(size_t)i];
	return vis_fb_plane_fits(&p, &bm.plan[(size_t)p.map], i, stride, row_bytes, rows, err, errlen) == 0;
}

static const uint8_t *plane_data(const BufferMaps &bm, int i)
{
	const vis_fb_plane &p = bm.planes[(size_t)i];
	return (const uint8_t *)bm.addr[(size_t)p.map] + p.offset;
}

extern "C" void vis_camera_cfg_default(struct vis_camera_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->low_width = 640;
	cfg->low_height = 360;
	cfg->buffers = 4;
}

extern "C" struct vis_camera *vis_camera_open(const struct vis_camera_cfg *cfg, char *err, size_t errlen)
{
	if (!cfg || cfg->low_width < 16 || cfg->low_height < 16 || cfg->low_width > VIS_MAX_SIDE ||
	    cfg->low_height > VIS_MAX_SIDE || cfg->full_width < 0 || cfg->full_height < 0 ||
	    cfg->full_width > VIS_MAX_SIDE || cfg->full_height > VIS_MAX_SIDE || cfg->buffers < 2 ||
	    cfg->buffers > 16) {
		set_err(err, errlen, "camera: bad configuration (stream sizes 16..%s, buffers 2..16)", "16384");
		errno = EINVAL;
		return nullptr;
	}
	vis_camera *c = nullptr;
	int e = EIO;
	try {
		c = new vis_camera();
		c->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (c->efd < 0) {
			e = errno;
			set_err(err, errlen, "camera: eventfd: %s", strerror(e));
			goto fail;
		}
		// libcamera logs to stderr by default; our messages go through
		// the caller's err instead.
		logSetTarget(LoggingTargetNone);
		c->manager = std::make_unique<CameraManager>();
		if (c->manager->start()) {
			set_err(err, errlen, "camera: libcamera's camera manager did not start%s", "");
			c->manager.reset();
			goto fail;
		}
		auto cams = c->manager->cameras();
		if (cams.empty()) {
			set_err(err, errlen, "camera: no camera found%s", "");
			e = ENODEV;
			goto fail;
		}
		c->camera = cfg->id ? c->manager->get(cfg->id) : cams[0];
		if (!c->camera) {
			set_err(err, errlen, "camera: no camera with id '%s'", cfg->id);
			e = ENODEV;
			goto fail;
		}
		if (c->camera->acquire()) {
			set_err(err, errlen, "camera: camera busy (another process holds %s)",
				c->camera->id().c_str());
			e = EBUSY;
			goto fail;
		}
		c->acquired = true;
		c->config = c->camera->generateConfiguration({ StreamRole::VideoRecording, StreamRole::StillCapture });
		if (!c->config || c->config->size() != 2) {
			set_err(err, errlen, "camera: unsupported format: %s cannot give two streams at once",
				c->camera->id().c_str());
			e = EINVAL;
			goto fail;
		}
		StreamConfiguration &low = c->config->at(0), &full = c->config->at(1);
		low.pixelFormat = formats::YUV420;
		low.size = Size(cfg->low_width, cfg->low_height);
		low.bufferCount = cfg->buffers;
		full.pixelFormat = formats::YUV420;
		if (cfg->full_width && cfg->full_height)
			full.size = Size(cfg->full_width, cfg->full_height);
		full.bufferCount = cfg->buffers;
		if (c->config->validate() == CameraConfiguration::Invalid || low.pixelFormat != formats::YUV420 ||
		    full.pixelFormat != formats::YUV420) {
			set_err(err, errlen, "camera: unsupported format: no YUV420 at the asked sizes%s", "");
			e = EINVAL;
			goto fail;
		}
		// validate() may have adjusted the tracking stream's size; the
		// tracker and the calibration are for the size asked.
		if (low.size != Size(cfg->low_width, cfg->low_height)) {
			std::string msg = "camera: unsupported format: the tracking stream comes at " +
					  low.size.toString() + ", not " + std::to_string(cfg->low_width) + "x" +
					  std::to_string(cfg->low_height) +
					  " (set camera.low_width and low_height to it)";
			set_err(err, errlen, "%s", msg.c_str());
			e = EINVAL;
			goto fail;
		}
		c->fps = cfg->fps;
		if (c->camera->configure(c->config.get())) {
			set_err(err, errlen, "camera: configure failed%s", "");
			goto fail;
		}
		c->allocator = std::make_unique<FrameBufferAllocator>(c->camera);
		for (unsigned i = 0; i < 2; i++)
			if (c->allocator->allocate(c->config->at(i).stream()) < 0) {
				set_err(err, errlen, "camera: buffer allocation failed%s", "");
				e = ENOMEM;
				goto fail;
			}
		const auto &lb = c->allocator->buffers(low.stream());
		const auto &fb = c->allocator->buffers(full.stream());
		size_t n = lb.size() < fb.size() ? lb.size() : fb.size();
		for (size_t i = 0; i < n; i++) {
			std::unique_ptr<Request> req = c->camera->createRequest(i);
			if (!req || req->addBuffer(low.stream(), lb[i].get()) ||
			    req->addBuffer(full.stream(), fb[i].get())) {
				set_err(err, errlen, "camera: cannot build requests%s", "");
				goto fail;
			}
			c->requests.push_back(std::move(req));
		}
		// Map each distinct dmabuf of each buffer once, as far as its
		// furthest plane; every plane is addressed in its own mapping.
		for (const auto *list : { &lb, &fb })
			for (const auto &buf : *list) {
				BufferMaps &bm = c->maps[buf.get()];
				for (const auto &pl : buf->planes())
					bm.planes.push_back(vis_fb_plane{ pl.fd.get(), pl.offset, pl.length, -1 });
				bm.plan.resize(bm.planes.size());
				int nm = vis_fb_plan(bm.planes.data(), (int)bm.planes.size(), bm.plan.data(), err,
						     errlen);
				if (nm < 0) {
					e = EINVAL;
					goto fail;
				}
				bm.plan.resize((size_t)nm);
				for (const vis_fb_map &pm : bm.plan) {
					void *a = mmap(nullptr, pm.len, PROT_READ, MAP_SHARED, pm.fd, 0);
					if (a == MAP_FAILED) {
						set_err(err, errlen, "camera: mmap: %s", strerror(errno));
						goto fail;
					}
					bm.addr.push_back(a);
				}
			}
		c->camera->requestCompleted.connect(c, &vis_camera::completed);
		return c;
	} catch (const std::exception &ex) {
		set_err(err, errlen, "camera: %s", ex.what());
		e = EIO;
	} catch (...) {
		set_err(err, errlen, "camera: unexpected failure in libcamera%s", "");
		e = EIO;
	}
fail:
	if (c) {
		try {
			teardown(c);
		} catch (...) {
		}
		delete c;
	}
	errno = e;
	return nullptr;
}

extern "C" int vis_camera_start(struct vis_camera *c, char *err, size_t errlen)
{
	try {
		// The rate is asked for at start, within the limits of the sensor
		// mode configure() chose (both streams come from that one mode).
		ControlList ctrls(controls::controls);
		int64_t lo = 0, hi = 0, d[2];
		const ControlInfoMap &info = c->camera->controls();
		auto it = info.find(&controls::FrameDurationLimits);
		if (it != info.end()) {
			lo = it->second.min().get<int64_t>();
			hi = it->second.max().get<int64_t>();
		}
		if (vis_camera_frame_durations(c->fps, lo, hi, d) == 0)
			ctrls.set(controls::FrameDurationLimits, Span<const int64_t, 2>(d));
		if (c->camera->start(&ctrls)) {
			set_err(err, errlen, "camera: start failed%s", "");
			return -EIO;
		}
		c->started = true;
		for (auto &r : c->requests)
			if (c->camera->queueRequest(r.get())) {
				set_err(err, errlen, "camera: queueing a request failed%s", "");
				return -EIO;
			}
		return 0;
	} catch (...) {
		set_err(err, errlen, "camera: start failed in libcamera%s", "");
		return -EIO;
	}
}

extern "C" int vis_camera_fd(const struct vis_camera *c)
{
	return c->efd;
}

// Takes what completed: the newest request is held (its buffers stay
// readable until the next), the older ones go back to the camera. The held
// request, or nullptr when none has completed yet.
static Request *take_held(struct vis_camera *c)
{
	uint64_t cnt;
	ssize_t rd = read(c->efd, &cnt, sizeof cnt);
	(void)rd;	// EAGAIN when already drained: the queue decides
	std::deque<Request *> ready;
	{
		std::lock_guard<std::mutex> g(c->lock);
		ready.swap(c->done);
	}
	// The newest completed request is held, so its full-resolution
	// frame can still be taken after its low one; the rest go back.
	if (!ready.empty()) {
		if (c->held) {
			c->held->reuse(Request::ReuseBuffers);
			c->camera->queueRequest(c->held);
		}
		c->held = ready.back();
		ready.pop_back();
		for (Request *r : ready) {
			r->reuse(Request::ReuseBuffers);
			c->camera->queueRequest(r);
		}
	}
	return c->held;
}

// The held request's YUV420 planes of stream, checked against their
// mappings: 1 with *bmp, *scp and *bufp set, 0 no buffer of that stream,
// negative errno with a message.
static int held_planes(struct vis_camera *c, Request *req, enum vis_camera_stream stream,
		       const BufferMaps **bmp, const StreamConfiguration **scp, FrameBuffer **bufp,
		       char *err, size_t errlen)
{
	const StreamConfiguration &sc = c->config->at(stream == VIS_STREAM_FULL ? 1 : 0);
	FrameBuffer *buf = req->findBuffer(sc.stream());
	if (!buf)
		return 0;
	auto m = c->maps.find(buf);
	size_t w = sc.size.width, h = sc.size.height;
	if (m == c->maps.end() || m->second.planes.size() < 3) {
		set_err(err, errlen, "camera: frame not in YUV420 planes%s", "");
		return -EINVAL;
	}
	if (!plane_fits(m->second, 0, sc.stride, w, h, err, errlen) ||
	    !plane_fits(m->second, 1, sc.stride / 2, (w + 1) / 2, (h + 1) / 2, err, errlen) ||
	    !plane_fits(m->second, 2, sc.stride / 2, (w + 1) / 2, (h + 1) / 2, err, errlen))
		return -EINVAL;	// a short buffer: reading it would run past the mapping
	*bmp = &m->second;
	*scp = &sc;
	*bufp = buf;
	return 1;
}

// Runs make(planes, configuration, buffer) on the held request's frame of
// stream: its result, 0 when there is no frame yet, a negative errno with
// a message; no exception leaves.
template <typename Make>
static int with_held_frame(struct vis_camera *c, enum vis_camera_stream stream, char *err,
			   size_t errlen, Make make)
{
	try {
		Request *req = take_held(c);
		const BufferMaps *bm;
		const StreamConfiguration *sc;
		FrameBuffer *buf;
		if (!req)
			return 0;
		int ret = held_planes(c, req, stream, &bm, &sc, &buf, err, errlen);
		if (ret != 1)
			return ret;
		return make(*bm, *sc, *buf);
	} catch (...) {
		set_err(err, errlen, "camera: failure in libcamera while taking a frame%s", "");
		return -EIO;
	}
}

extern "C" int vis_camera_take(struct vis_camera *c, enum vis_camera_stream stream,
			       struct vis_image **out, char *err, size_t errlen)
{
	*out = nullptr;
	return with_held_frame(c, stream, err, errlen,
			       [&](const BufferMaps &bm, const StreamConfiguration &sc, FrameBuffer &buf) {
		struct vis_image *img = vis_image_new((int)sc.size.width, (int)sc.size.height, VIS_RGB24);
		if (!img) {
			set_err(err, errlen, "camera: out of memory%s", "");
			return -ENOMEM;
		}
		vis_yuv420_to_rgb(plane_data(bm, 0), sc.stride, plane_data(bm, 1), plane_data(bm, 2),
				  sc.stride / 2, img);
		img->ts_ns = (int64_t)buf.metadata().timestamp;
		*out = img;
		return 1;
	});
}

extern "C" int vis_camera_take_yuv(struct vis_camera *c, enum vis_camera_stream stream,
				   struct vis_yuv420 **out, char *err, size_t errlen)
{
	*out = nullptr;
	return with_held_frame(c, stream, err, errlen,
			       [&](const BufferMaps &bm, const StreamConfiguration &sc, FrameBuffer &buf) {
		struct vis_yuv420 *f = vis_yuv420_new((int)sc.size.width, (int)sc.size.height);
		if (!f) {
			set_err(err, errlen, "camera: out of memory%s", "");
			return -ENOMEM;
		}
		// Row by row: the buffer's strides may be wider than the rows.
		size_t cw = ((size_t)f->width + 1) / 2, ch = ((size_t)f->height + 1) / 2;
		for (int r = 0; r < f->height; r++)
			memcpy(f->y + (size_t)r * f->y_stride, plane_data(bm, 0) + (size_t)r * sc.stride,
			       (size_t)f->width);
		for (size_t r = 0; r < ch; r++) {
			memcpy(f->u + r * f->uv_stride, plane_data(bm, 1) + r * (sc.stride / 2), cw);
			memcpy(f->v + r * f->uv_stride, plane_data(bm, 2) + r * (sc.stride / 2), cw);
		}
		f->ts_ns = (int64_t)buf.metadata().timestamp;
		*out = f;
		return 1;
	});
}

extern "C" void vis_camera_close(struct vis_camera *c)
{
	if (!c)
		return;
	try {
		teardown(c);
	} catch (...) {
	}
	delete c;
}
