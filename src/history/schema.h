/*
 * schema.h - the schema SQL files of src/history/schema/, embedded at
 * build time (Makefile.am turns them into schema_sql.c, in version order)
 * for the migration runner in history.c.
 */
#ifndef DBENCH_HISTORY_SCHEMA_H
#define DBENCH_HISTORY_SCHEMA_H

struct history_schema_file {
	int version;		/* NNN of NNN-name.sql */
	const char *name;	/* the file's name */
	const char *sql;	/* its text */
};

/* ascending by version */
extern const struct history_schema_file history_schema_files[];
extern const unsigned history_schema_nfiles;

#endif
