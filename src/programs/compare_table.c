/*
 * compare_table.c - dbench-compare's table (compare_table.h): its rows,
 * and printing them as aligned text (values right-aligned, changes in a
 * column of their own) or as Markdown.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <talloc.h>

#include "compare_table.h"

/*
 * A row: v[c] formatted with fmt, and after the first column its change
 * against v[0] in percent, unless either is under min (too small to
 * compare); v[c] < 0 shows text[c] if text and text[c] are set, else
 * "-".
 */
int add_row_text(struct table *t, const char *name, const double *v,
			const char *fmt, const char *const *text, double min)
{
	char **names = talloc_realloc(t, t->name, char *, t->nrows + 1);
	char ***cells, ***chgs;
	char **row, **chg;

	if (names == NULL)
		return -1;
	t->name = names;
	cells = talloc_realloc(t, t->cell, char **, t->nrows + 1);
	if (cells == NULL)
		return -1;
	t->cell = cells;
	chgs = talloc_realloc(t, t->chg, char **, t->nrows + 1);
	if (chgs == NULL)
		return -1;
	t->chg = chgs;
	row = talloc_array(t, char *, t->ncols);
	chg = talloc_array(t, char *, t->ncols);
	if (row == NULL || chg == NULL)
		return -1;
	names[t->nrows] = talloc_strdup(t, name);
	for (unsigned c = 0; c < t->ncols; c++) {
		bool cmp = c > 0 && v[c] >= 0 && v[0] > 0 && v[0] >= min &&
			   v[c] >= min;

		row[c] = v[c] < 0 ? talloc_strdup(row, text && text[c] ?
						  text[c] : "-") :
				    talloc_asprintf(row, fmt, v[c]);
		chg[c] = cmp ? talloc_asprintf(chg, "(%+.1f%%)", (v[c] - v[0]) /
					       v[0] * 100) :
			       talloc_strdup(chg, "");
		if (row[c] == NULL || chg[c] == NULL)
			return -1;
	}
	chgs[t->nrows] = chg;
	cells[t->nrows++] = row;
	return 0;
}

int add_row(struct table *t, const char *name, const double *v,
		   const char *fmt, double min)
{
	return add_row_text(t, name, v, fmt, NULL, min);
}

/* Print line without its trailing spaces, and a newline. */
static void put_line(char *line)
{
	size_t n = line != NULL ? strlen(line) : 0;

	while (n > 0 && line[n - 1] == ' ')
		line[--n] = '\0';
	printf("%s\n", line != NULL ? line : "");
}

/*
 * The text table: per column the values right-aligned, their changes
 * beside them aligned too, the header over both.
 */
void print_text(const struct table *t)
{
	size_t w0 = strlen("Metric");
	size_t *wv = talloc_zero_array(NULL, size_t, t->ncols * 2);
	size_t *wc = wv != NULL ? wv + t->ncols : NULL;
	char *line;

	if (wv == NULL)
		return;
	for (unsigned r = 0; r < t->nrows; r++)
		if (strlen(t->name[r]) > w0)
			w0 = strlen(t->name[r]);
	for (unsigned c = 0; c < t->ncols; c++) {
		for (unsigned r = 0; r < t->nrows; r++) {
			if (strlen(t->cell[r][c]) > wv[c])
				wv[c] = strlen(t->cell[r][c]);
			if (strlen(t->chg[r][c]) > wc[c])
				wc[c] = strlen(t->chg[r][c]);
		}
		/* a header wider than both: the values move right */
		if (strlen(t->head[c]) > wv[c] + (wc[c] ? wc[c] + 1 : 0))
			wv[c] = strlen(t->head[c]) - (wc[c] ? wc[c] + 1 : 0);
	}
	line = talloc_asprintf(wv, "%-*s", (int)w0, "Metric");
	for (unsigned c = 0; line != NULL && c < t->ncols; c++)
		line = talloc_asprintf_append(line, "  %*s", (int)(wv[c] +
					      (wc[c] ? wc[c] + 1 : 0)),
					      t->head[c]);
	put_line(line);
	for (unsigned r = 0; r < t->nrows; r++) {
		line = talloc_asprintf(wv, "%-*s", (int)w0, t->name[r]);
		for (unsigned c = 0; line != NULL && c < t->ncols; c++)
			line = talloc_asprintf_append(
				line, "  %*s%s%-*s", (int)wv[c],
				t->cell[r][c], wc[c] ? " " : "", (int)wc[c],
				t->chg[r][c]);
		put_line(line);
	}
	talloc_free(wv);
}

/* Markdown cells: escape the characters that would end or format one. */
void md_cell(const char *s)
{
	for (; *s; s++) {
		if (strchr("|\\*_`", *s) != NULL)
			putchar('\\');
		putchar(*s);
	}
}

void print_markdown(const struct table *t)
{
	printf("| Metric |");
	for (unsigned c = 0; c < t->ncols; c++) {
		putchar(' ');
		md_cell(t->head[c]);
		printf(" |");
	}
	printf("\n|---|");
	for (unsigned c = 0; c < t->ncols; c++)
		printf("---:|");
	printf("\n");
	for (unsigned r = 0; r < t->nrows; r++) {
		printf("| ");
		md_cell(t->name[r]);
		printf(" |");
		for (unsigned c = 0; c < t->ncols; c++) {
			putchar(' ');
			md_cell(t->cell[r][c]);
			if (t->chg[r][c][0] != '\0') {
				putchar(' ');
				md_cell(t->chg[r][c]);
			}
			printf(" |");
		}
		printf("\n");
	}
}
