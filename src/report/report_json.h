/*
 * report_json.h - the JSON result document (--json FILE), built with
 * json-c as a tree of json_objects and then written in one go.
 *
 * The document's shape is documented in README ("The JSON result") and in
 * doc/dbench-result.schema.json.  REPORT_JSON_SCHEMA_VERSION changes
 * whenever a field changes meaning or disappears; adding a field does not
 * change it.
 *
 * Building and writing are separate so that other modes can add their
 * own sections: build the document (report_json_build() for a load run,
 * report_json_header() for a run without one), attach sections with
 * report_json_attach() (e.g. "disk_test"), then report_json_write().
 */
#ifndef DBENCH_REPORT_JSON_H
#define DBENCH_REPORT_JSON_H

#include <time.h>

#include "stats/host.h"
#include "util/options.h"
#include "report/report.h"
#include "stats/result.h"

#define REPORT_JSON_SCHEMA_VERSION 1

struct json_object;

/*
 * The parts every document has: schema_version, tool, command_line,
 * options, host and directories (from host, the facts gathered at the
 * start of the run; NULL: the directories' paths only), and
 * start_time/end_time when the times are given (either may be NULL).
 * Returns a new object (release it with json_object_put()), or NULL when
 * out of memory.
 */
struct json_object *report_json_header(const struct dbench_options *o,
				       const struct host_facts *host,
				       const struct timespec *started,
				       const struct timespec *ended);

/*
 * The whole document for a load run, from its result r: the header plus
 * result, phases, operations (with percentiles and histogram buckets),
 * clients and series; hosts with each host's facts after a job of
 * several hosts.  The header's host and directories are those of host
 * label 0 in r.  mem_ctx is used for temporaries only.  Returns a
 * new object, or NULL when out of memory.
 */
struct json_object *report_json_build(void *mem_ctx,
				      const struct dbench_options *o,
				      const struct run_result *r);

/*
 * Add section to doc under key, replacing any section of that name.  doc
 * takes over section (also when it fails).  Returns 0, or -1.
 */
int report_json_attach(struct json_object *doc, const char *key,
		       struct json_object *section);

/*
 * Write doc to path (pretty-printed, then renamed into place so a reader
 * never sees half a document).  Returns 0, or -1 with *err (under
 * mem_ctx) naming the file and the cause.
 */
int report_json_write(void *mem_ctx, struct json_object *doc,
		      const char *path, char **err);

#endif
