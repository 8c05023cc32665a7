/*
 * lf_private.h - what the parts of the loadfile compiler share: its
 * limits, the compilation state (struct lf_state) and the functions one
 * part calls in another.  Private to src/loadfile/; the public interface
 * is src/loadfile/program.h.
 *
 * The parts: reader.c (errors, the line reader, the tokenizer), store.c
 * (the program's growing arrays), values.c (numbers, value forms,
 * handles, texts), paths.c (path normalisation and interning, the
 * directory table), dialect.c (client.txt's, dbench 5.0's smb and the
 * NFSv3 dialect, and which one a file is in), device.c (the block and
 * SCSI dialects' commands), confine.c (where removals may reach), commands.c (one
 * command's fields) and loadfile.c (lines, whole-file checks, the entry
 * points).
 */
#ifndef DBENCH_LF_PRIVATE_H
#define DBENCH_LF_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <zlib.h>

#include "loadfile/program.h"

#define LF_MAX_LINE	  (1u << 20)   /* bytes, without the line end */
#define LF_MAX_INPUT	  (1ull << 30) /* bytes, after decompression */
#define LF_READ_CHUNK	  (1u << 20)   /* bytes asked of gzread at once */
#define LF_MAX_LOOP_DEPTH 64
#define LF_MAX_COMPONENT  255
#define LF_MAX_PATH	  4095
#define LF_MAX_RANDOM	  99 /* highest RANDOMSTRING index */
#define LF_MAX_FIELDS	  8  /* more than any command has */
#define LF_MAX_MODS	  16 /* modifiers after one '*' */
#define LF_SHOW_MAX	  40 /* bytes of a token quoted in errors */
#define LF_MAX_TIME	  1e9 /* seconds (31 years): nanoseconds fit in 63 bits */

#define LF_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* One whitespace-separated field of a line; quoted ones without quotes. */
struct lf_field {
	const char *p;
	size_t len;
	bool quoted;
};

/* A loadfile handle number and the dense slot it was given. */
struct lf_handle {
	int64_t num;
	int32_t slot;	    /* -1: entry unused */
	uint32_t first_use; /* line of the first op that used it, 0 if none */
	uint8_t first_kind; /* the kind of that op */
	bool produced;	    /* some NTCreateX opens it */
};

/* A path with "$i" in it, kept for the end-of-file checks. */
struct lf_random_path {
	uint32_t path;		/* id */
	uint32_t line;
};

/*
 * A column of the program that grows one element per op (the ops, the
 * times): in a reservation of address space made resident ahead of the
 * parser (see lf_col_reserve), or grown with realloc for small inputs.
 */
struct lf_col {
	void *base;		/* the array (copied to the program) */
	size_t elem;		/* bytes per element */
	uint32_t cap;
	size_t prefaulted;	/* bytes made resident */
	bool area;		/* in a reservation */
};

/* An interning table: open addressing on the text, ids + 1, 0 = empty. */
struct lf_itab {
	uint32_t *slot;
	uint32_t mask;
};

/* The state of one compilation (program_compile*()). */
struct lf_state {
	void *mem_ctx;
	void *tmp; /* freed when compilation ends */
	const char *name;
	char **err;
	struct program *prog;
	uint32_t line;
	struct lf_col ops;	/* prog->ops */
	struct lf_col times;	/* prog->times, from the first timed op */
	uint64_t ops_bound;	/* the most ops the input can have; 0: small */
	struct path *paths;	/* prog->paths, writable */
	uint32_t paths_cap;
	struct program_dir *dirs; /* prog->dirs, writable */
	uint32_t dirs_cap;
	struct value *values;	/* prog->values, writable */
	uint32_t values_cap;
	struct program_text *texts; /* prog->texts, writable */
	uint32_t texts_cap;
	struct value_mod *mods; /* prog->mods, writable */
	uint32_t mods_cap;
	uint32_t handles_cap; /* of prog->handle_nums */
	char *text_chunk;	/* free room for texts: text_left bytes */
	size_t text_left;

	/* input: either a whole buffer or a gzip stream through a window */
	const char *buf;
	size_t buf_len;
	size_t buf_pos;
	gzFile gz;
	char *win;
	size_t win_cap, win_start, win_end;
	bool gz_eof;
	uint64_t total;

	struct lf_itab path_tab; /* interned paths */
	struct lf_itab dir_tab;	 /* interned directories */
	char *scratch;
	size_t scratch_cap;
	struct lf_random_path *rpaths;
	uint32_t nrpaths, rpaths_cap;

	/* handles: open addressing on the loadfile number */
	struct lf_handle *htab;
	uint32_t htab_mask;

	/* LOOP nesting: indices of the open LOOP ops */
	uint32_t loop_stack[LF_MAX_LOOP_DEPTH];
	uint32_t loop_depth;

	/* REPEAT waiting for the command it repeats */
	bool repeat_pending;
	uint32_t repeat_line;

	/* RANDOMSTRING indices: first line using $i, definitions */
	uint32_t random_use_line[LF_MAX_RANDOM + 1];
	bool random_defined[LF_MAX_RANDOM + 1];
	bool random_dots[LF_MAX_RANDOM + 1]; /* can be all dots */

	/* the SMB dialect: client.txt's or dbench 5.0's (lf_dialect()) */
	uint8_t dialect;	/* enum lf_dialect */
	uint8_t dialect_kind;	/* the kind of the line that decided it */
	uint32_t dialect_line;	/* that line */
};

enum lf_dialect {
	LF_UNDECIDED = 0,	/* only lines both dialects have, so far */
	LF_CLIENT_TXT,
	LF_SMB5,
};

/* Inputs that can hold fewer ops than this have their op array grown with
 * realloc; larger ones get a reservation (store.c). */
#define LF_AREA_MIN_OPS	 (64u * 1024)

static inline bool lf_is_space(char c)
{
	return c == ' ' || c == '\t';
}

static inline const char *lf_op_name(const struct op *op)
{
	return op_info[op->kind].name;
}

/* reader.c: messages, the line reader, the tokenizer */
LF_PRINTF(2, 3)
int lf_error(struct lf_state *st, const char *fmt, ...);
LF_PRINTF(2, 3)
int lf_file_error(struct lf_state *st, const char *fmt, ...);
int lf_nomem(struct lf_state *st);
const char *lf_show(struct lf_state *st, const char *p, size_t len);
const char *lf_show_field(struct lf_state *st, const struct lf_field *f);
const char *lf_show_dos(struct lf_state *st, const struct path *pp);
int lf_next_line(struct lf_state *st, const char **line, size_t *len);
int lf_split(struct lf_state *st, const char *p, size_t len, size_t pos,
	     struct lf_field *fields, unsigned *nfields);

/* store.c: the program's arrays */
void *lf_grow(struct lf_state *st, void *arr, size_t elem, uint32_t *cap,
	      uint64_t need, uint32_t first);
const char *lf_keep_text(struct lf_state *st, const char *p, size_t len);
int lf_set_time(struct lf_state *st, uint32_t i, double t);
struct op *lf_new_op(struct lf_state *st);
void lf_trim(struct lf_state *st);
void lf_huge_ops(struct program *prog);

/* values.c: numbers, value forms, handles, texts */
int lf_plain(struct lf_state *st, const struct op *op, const char *what,
	     const struct lf_field *f, int64_t max, int64_t *out);
int lf_put_value(struct lf_state *st, struct value val,
		 const struct value_mod *mods, unsigned nmods, op_arg *out);
int lf_value(struct lf_state *st, const struct op *op, const char *what,
	     const struct lf_field *f, op_arg *out);
int lf_handle_num(struct lf_state *st, struct op *op, int64_t num,
		  bool produce);
int lf_handle(struct lf_state *st, struct op *op, const struct lf_field *f,
	      bool produce);
int lf_check_handles(struct lf_state *st);
int lf_text(struct lf_state *st, struct op *op, const char *p, size_t len);
int lf_random_pattern(struct lf_state *st, struct op *op,
		      const struct lf_field *f, unsigned idx);
int lf_smb5_never_opened(struct lf_state *st, const struct lf_handle *bad);

/* paths.c: paths and directories */
int lf_path(struct lf_state *st, struct op *op, const char *what,
	    const struct lf_field *f, uint32_t *out);
int lf_dirs_init(struct lf_state *st);
int lf_check_randoms(struct lf_state *st);
int lf_check_random_dots(struct lf_state *st);
int lf_smb5_client(struct lf_state *st, struct op *op, const char *what,
		   size_t len, int32_t *client_pos);

/* confine.c: where removals may reach */
int lf_removal_confined(struct lf_state *st, const struct op *op);
int lf_confine_earlier(struct lf_state *st, uint32_t n);

/* dialect.c: the dialects */
int lf_smb5_handle(struct lf_state *st, struct op *op);
bool lf_smb5_status(const struct lf_field *s);
int lf_dialect(struct lf_state *st, struct op *op, const struct lf_field *f,
	       unsigned nf);
int lf_one_dialect(struct lf_state *st);

/* device.c: the block and SCSI dialects' commands */
bool lf_is_device_kind(unsigned kind);
int lf_device_command(struct lf_state *st, struct op *op,
		      const struct lf_field *f, unsigned nf);

/* commands.c: one command's fields */
int lf_writepattern(struct lf_state *st, struct op *op, const char *p,
		    size_t len, size_t i);
int lf_command(struct lf_state *st, struct op *op, const struct lf_field *f,
	       unsigned nf);

#endif
