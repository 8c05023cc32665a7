/*
 * ntstatus.h - NT status codes: names, codes, errno mapping, matching.
 *
 * Loadfiles state the status each operation is expected to return in SMB
 * terms; local backends see errno values.  This module translates between
 * the two and decides whether an actual status satisfies an expectation.
 */
#ifndef DBENCH_NTSTATUS_H
#define DBENCH_NTSTATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loadfile/program.h"

#define NT_STATUS_OK				0x00000000u
#define NT_STATUS_UNSUCCESSFUL			0xC0000001u
#define NT_STATUS_NOT_IMPLEMENTED		0xC0000002u
#define NT_STATUS_INVALID_HANDLE		0xC0000008u
#define NT_STATUS_INVALID_PARAMETER		0xC000000Du
#define NT_STATUS_NO_SUCH_FILE			0xC000000Fu
#define NT_STATUS_END_OF_FILE			0xC0000011u
#define NT_STATUS_NO_MEMORY			0xC0000017u
#define NT_STATUS_ACCESS_DENIED			0xC0000022u
#define NT_STATUS_OBJECT_NAME_INVALID		0xC0000033u
#define NT_STATUS_OBJECT_NAME_NOT_FOUND		0xC0000034u
#define NT_STATUS_OBJECT_NAME_COLLISION		0xC0000035u
#define NT_STATUS_OBJECT_PATH_NOT_FOUND		0xC000003Au
#define NT_STATUS_SHARING_VIOLATION		0xC0000043u
#define NT_STATUS_LOCK_NOT_GRANTED		0xC0000055u
#define NT_STATUS_DISK_FULL			0xC000007Fu
#define NT_STATUS_MEDIA_WRITE_PROTECTED		0xC00000A2u
#define NT_STATUS_FILE_IS_A_DIRECTORY		0xC00000BAu
#define NT_STATUS_NOT_SUPPORTED			0xC00000BBu
#define NT_STATUS_DIRECTORY_NOT_EMPTY		0xC0000101u
#define NT_STATUS_NOT_A_DIRECTORY		0xC0000103u
#define NT_STATUS_TOO_MANY_OPENED_FILES		0xC000011Fu
#define NT_STATUS_CANNOT_DELETE			0xC0000121u
#define NT_STATUS_FILE_CLOSED			0xC0000128u
#define NT_STATUS_RANGE_NOT_LOCKED		0xC000007Eu
#define NT_STATUS_NO_MORE_FILES			0x80000006u

/* "NT_STATUS_OBJECT_NAME_NOT_FOUND" for a known code, NULL otherwise. */
const char *ntstatus_name(uint32_t code);

/*
 * Decode a status as written in a loadfile: an NT_STATUS_ name, a hex code
 * (0x...), SUCCESS, ERROR or '*'.  Returns 0 and fills *check and *code, or
 * -1 if the token is not a status.
 */
int ntstatus_parse(const char *tok, size_t len, enum status_check *check,
		   uint32_t *code);

/* The NT status a Windows server would answer for this errno. */
uint32_t ntstatus_from_errno(int err);

/*
 * The status of a call that failed with err: ntstatus_from_errno(), except
 * that err 0 (a failure without a reason) is UNSUCCESSFUL, never OK.
 */
uint32_t ntstatus_failure(int err);

/*
 * Faults: failures that say something about the run rather than about the
 * one request (the whole target is full, gone or out of resources).  The
 * client's fatal-fault policy stops on any class but FAULT_NONE.
 */
enum ntstatus_fault {
	FAULT_NONE = 0,		/* an answer to this request only */
	FAULT_DISK_FULL,	/* ENOSPC, EDQUOT */
	FAULT_READ_ONLY,	/* EROFS */
	FAULT_NO_HANDLES,	/* EMFILE, ENFILE */
	FAULT_NO_MEMORY,	/* ENOMEM */
	FAULT_IO,		/* EIO */
	FAULT_TRANSPORT,	/* the connection is lost: ECONNRESET,
				 * ECONNABORTED, ECONNREFUSED, ETIMEDOUT,
				 * EPIPE, ENOTCONN, EHOSTUNREACH,
				 * ENETUNREACH, ENETDOWN, ESTALE */
};

/* The fault class of an errno (negative taken as its absolute value). */
enum ntstatus_fault ntstatus_fault_class(int err);

/* "disk full", "transport lost", ...: a short name, for messages. */
const char *ntstatus_fault_name(enum ntstatus_fault fault);

/*
 * Does actual satisfy the expectation?  For STATUS_EXACT, a failure in the
 * same family as expected (the errno mapping cannot tell the members of a
 * family apart, e.g. NAME_NOT_FOUND / PATH_NOT_FOUND / NO_SUCH_FILE)
 * counts as a match.
 */
bool ntstatus_matches(enum status_check check, uint32_t expected,
		      uint32_t actual);

/*
 * Text for a status, for messages: the name if known, otherwise "0x%08X".
 * buf must hold at least 11 bytes; returns either a static name or buf.
 */
const char *ntstatus_str(uint32_t code, char buf[static 11]);

#endif
