/* Link-seam stub: the part of libgpiod 2.x's <gpiod.h> that
 * sensors/gpio_v2.c uses, with the same names, signatures and enum
 * values. Built against gpiod_v2_stub.c for tests. */
#ifndef DYEREF_STUB_GPIOD_V2_H
#define DYEREF_STUB_GPIOD_V2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gpiod_chip;
struct gpiod_chip_info;
struct gpiod_line_info;
struct gpiod_line_settings;
struct gpiod_line_config;
struct gpiod_request_config;
struct gpiod_line_request;
struct gpiod_edge_event;
struct gpiod_edge_event_buffer;

enum gpiod_line_direction {
	GPIOD_LINE_DIRECTION_AS_IS = 1,
	GPIOD_LINE_DIRECTION_INPUT,
	GPIOD_LINE_DIRECTION_OUTPUT,
};

enum gpiod_line_edge {
	GPIOD_LINE_EDGE_NONE = 1,
	GPIOD_LINE_EDGE_RISING,
	GPIOD_LINE_EDGE_FALLING,
	GPIOD_LINE_EDGE_BOTH,
};

enum gpiod_line_bias {
	GPIOD_LINE_BIAS_AS_IS = 1,
	GPIOD_LINE_BIAS_UNKNOWN,
	GPIOD_LINE_BIAS_DISABLED,
	GPIOD_LINE_BIAS_PULL_UP,
	GPIOD_LINE_BIAS_PULL_DOWN,
};

enum gpiod_line_clock {
	GPIOD_LINE_CLOCK_MONOTONIC = 1,
	GPIOD_LINE_CLOCK_REALTIME,
	GPIOD_LINE_CLOCK_HTE,
};

enum gpiod_edge_event_type {
	GPIOD_EDGE_EVENT_RISING_EDGE = 1,
	GPIOD_EDGE_EVENT_FALLING_EDGE,
};

struct gpiod_chip *gpiod_chip_open(const char *path);
void gpiod_chip_close(struct gpiod_chip *chip);
struct gpiod_chip_info *gpiod_chip_get_info(struct gpiod_chip *chip);
size_t gpiod_chip_info_get_num_lines(struct gpiod_chip_info *info);
const char *gpiod_chip_info_get_label(struct gpiod_chip_info *info);
void gpiod_chip_info_free(struct gpiod_chip_info *info);
struct gpiod_line_info *gpiod_chip_get_line_info(struct gpiod_chip *chip, unsigned int offset);
bool gpiod_line_info_is_used(struct gpiod_line_info *info);
const char *gpiod_line_info_get_consumer(struct gpiod_line_info *info);
void gpiod_line_info_free(struct gpiod_line_info *info);

struct gpiod_line_settings *gpiod_line_settings_new(void);
void gpiod_line_settings_free(struct gpiod_line_settings *settings);
int gpiod_line_settings_set_direction(struct gpiod_line_settings *settings,
				      enum gpiod_line_direction direction);
int gpiod_line_settings_set_edge_detection(struct gpiod_line_settings *settings,
					   enum gpiod_line_edge edge);
int gpiod_line_settings_set_bias(struct gpiod_line_settings *settings, enum gpiod_line_bias bias);
void gpiod_line_settings_set_debounce_period_us(struct gpiod_line_settings *settings,
						unsigned long period);
int gpiod_line_settings_set_event_clock(struct gpiod_line_settings *settings,
					enum gpiod_line_clock event_clock);

struct gpiod_line_config *gpiod_line_config_new(void);
void gpiod_line_config_free(struct gpiod_line_config *config);
int gpiod_line_config_add_line_settings(struct gpiod_line_config *config,
					const unsigned int *offsets, size_t num_offsets,
					struct gpiod_line_settings *settings);

struct gpiod_request_config *gpiod_request_config_new(void);
void gpiod_request_config_free(struct gpiod_request_config *config);
void gpiod_request_config_set_consumer(struct gpiod_request_config *config, const char *consumer);

struct gpiod_line_request *gpiod_chip_request_lines(struct gpiod_chip *chip,
						    struct gpiod_request_config *req_cfg,
						    struct gpiod_line_config *line_cfg);
void gpiod_line_request_release(struct gpiod_line_request *request);
int gpiod_line_request_get_fd(struct gpiod_line_request *request);
int gpiod_line_request_wait_edge_events(struct gpiod_line_request *request, int64_t timeout_ns);
int gpiod_line_request_read_edge_events(struct gpiod_line_request *request,
					struct gpiod_edge_event_buffer *buffer, size_t max_events);

struct gpiod_edge_event_buffer *gpiod_edge_event_buffer_new(size_t capacity);
void gpiod_edge_event_buffer_free(struct gpiod_edge_event_buffer *buffer);
struct gpiod_edge_event *gpiod_edge_event_buffer_get_event(struct gpiod_edge_event_buffer *buffer,
							   unsigned long index);
enum gpiod_edge_event_type gpiod_edge_event_get_event_type(struct gpiod_edge_event *event);
uint64_t gpiod_edge_event_get_timestamp_ns(struct gpiod_edge_event *event);
unsigned int gpiod_edge_event_get_line_offset(struct gpiod_edge_event *event);

#endif
