/*
 * compare_table.h - dbench-compare's table: rows of values and their
 * changes against the first column, printed as aligned text or Markdown.
 */
#ifndef DBENCH_COMPARE_TABLE_H
#define DBENCH_COMPARE_TABLE_H

#include <stdbool.h>

struct json_object;

/*
 * A latency under this is too small to compare in percent: a few steps
 * of the 0.001 ms the table shows, where the clock reads themselves
 * weigh (a value of 0.001 against 0.000 is no -100%).
 */
#define MIN_COMPARABLE_MS 0.01

struct table {
	unsigned ncols;		/* runs, or the two sides of --a/--b */
	unsigned nrows;
	char **head;		/* ncols labels */
	char **name;		/* nrows row names */
	char ***cell;		/* [row][col]: the value */
	char ***chg;		/* [row][col]: its change, or "" */
	struct json_object ***cols;	/* [col]: the runs of that column */
	unsigned *ncol;		/* [col]: how many */
};

/*
 * A row: v[c] formatted with fmt, and after the first column its change
 * against v[0] in percent, unless either is under min (too small to
 * compare); v[c] < 0 shows text[c] if text and text[c] are set, else
 * "-".  Returns 0 or -1 (out of memory).
 */
int add_row_text(struct table *t, const char *name, const double *v,
		 const char *fmt, const char *const *text, double min);

/* add_row_text() without texts. */
int add_row(struct table *t, const char *name, const double *v,
	    const char *fmt, double min);

/* The table as text: values right-aligned, their changes aligned. */
void print_text(const struct table *t);

/* The table in Markdown. */
void print_markdown(const struct table *t);

/* s as a Markdown cell: the characters that would end or format one
 * escaped. */
void md_cell(const char *s);

#endif
