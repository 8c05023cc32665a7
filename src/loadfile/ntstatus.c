/*
 * ntstatus.c - NT status codes: the name <-> code table, decoding the
 * status field of a loadfile line, the errno -> NT status mapping a local
 * backend uses, and the rule deciding whether an actual status satisfies
 * the expected one.
 *
 * Families: a POSIX errno often stands for several NT statuses that a
 * Windows server would tell apart.  When the expected status is a failure,
 * any actual failure of the same family is a match.  The families are:
 *
 *   not found      OBJECT_NAME_NOT_FOUND, OBJECT_PATH_NOT_FOUND,
 *                  NO_SUCH_FILE, NO_MORE_FILES, NOT_A_DIRECTORY
 *                  (ENOENT cannot say whether the last component or a
 *                  directory above it is missing; ENOTDIR is what POSIX
 *                  answers when a directory above is a file, where Windows
 *                  says OBJECT_PATH_NOT_FOUND)
 *   access         ACCESS_DENIED, CANNOT_DELETE (Windows refuses to delete
 *                  a read-only file with CANNOT_DELETE; POSIX says EACCES
 *                  or EPERM)
 *   handle         INVALID_HANDLE, FILE_CLOSED (both are EBADF)
 *   unsupported    NOT_SUPPORTED, NOT_IMPLEMENTED, EAS_NOT_SUPPORTED,
 *                  INVALID_DEVICE_REQUEST (ENOSYS, EOPNOTSUPP, ENOTSUP)
 *   full           DISK_FULL, QUOTA_EXCEEDED (ENOSPC, EDQUOT)
 *   lock           LOCK_NOT_GRANTED, FILE_LOCK_CONFLICT
 *   bad name       OBJECT_NAME_INVALID, OBJECT_PATH_INVALID,
 *                  OBJECT_PATH_SYNTAX_BAD, NAME_TOO_LONG (ENAMETOOLONG)
 *
 * ENOTDIR maps to NOT_A_DIRECTORY (what the errno literally says, and what
 * Windows answers for e.g. removing a file with Rmdir); the "not found"
 * family makes an expected OBJECT_PATH_NOT_FOUND accept it as well.
 * Beyond the required mappings: ENAMETOOLONG -> OBJECT_NAME_INVALID,
 * EINVAL -> INVALID_PARAMETER, ENOMEM -> NO_MEMORY, EBUSY and ETXTBSY ->
 * SHARING_VIOLATION, EXDEV -> NOT_SAME_DEVICE, ELOOP -> STOPPED_ON_SYMLINK
 * and EFBIG -> DISK_FULL; the errnos of a lost connection map to the
 * CONNECTION_* / IO_TIMEOUT / PIPE_BROKEN statuses (ESTALE, an NFS export
 * that forgot the file, to FILE_INVALID).  A negative errno is taken as
 * its absolute value; anything else is UNSUCCESSFUL (EAGAIN on a lock is
 * for the backend to turn into LOCK_NOT_GRANTED).
 *
 * The same table classifies the faults that are more than one request's
 * answer (ntstatus_fault_class): the client's fatal-fault policy and
 * every backend sort errno through it, nowhere else.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <strings.h>

#include "loadfile/ntstatus.h"
#include "util/util.h"

/* Codes the loadfile may name beyond those ntstatus.h defines. */
#define NT_STATUS_OBJECT_NAME_EXISTS	 0x40000000u
#define NT_STATUS_BUFFER_OVERFLOW	 0x80000005u
#define NT_STATUS_STOPPED_ON_SYMLINK	 0x8000002Du
#define NT_STATUS_INVALID_INFO_CLASS	 0xC0000003u
#define NT_STATUS_NO_SUCH_DEVICE	 0xC000000Eu
#define NT_STATUS_INVALID_DEVICE_REQUEST 0xC0000010u
#define NT_STATUS_BUFFER_TOO_SMALL	 0xC0000023u
#define NT_STATUS_OBJECT_PATH_INVALID	 0xC0000039u
#define NT_STATUS_OBJECT_PATH_SYNTAX_BAD 0xC000003Bu
#define NT_STATUS_QUOTA_EXCEEDED	 0xC0000044u
#define NT_STATUS_EAS_NOT_SUPPORTED	 0xC000004Fu
#define NT_STATUS_FILE_LOCK_CONFLICT	 0xC0000054u
#define NT_STATUS_DELETE_PENDING	 0xC0000056u
#define NT_STATUS_INSUFFICIENT_RESOURCES 0xC000009Au
#define NT_STATUS_NOT_SAME_DEVICE	 0xC00000D4u
#define NT_STATUS_NAME_TOO_LONG		 0xC0000106u
#define NT_STATUS_INVALID_LEVEL		 0xC0000148u
#define NT_STATUS_FILE_TOO_LARGE	 0xC0000904u
#define NT_STATUS_FILE_INVALID		 0xC0000098u
#define NT_STATUS_IO_TIMEOUT		 0xC00000B5u
#define NT_STATUS_PIPE_BROKEN		 0xC000014Bu
#define NT_STATUS_CONNECTION_DISCONNECTED 0xC000020Cu
#define NT_STATUS_CONNECTION_RESET	 0xC000020Du
#define NT_STATUS_CONNECTION_REFUSED	 0xC0000236u
#define NT_STATUS_NETWORK_UNREACHABLE	 0xC000023Cu
#define NT_STATUS_HOST_UNREACHABLE	 0xC000023Du
#define NT_STATUS_CONNECTION_ABORTED	 0xC0000241u

enum nt_family {
	FAM_NONE = 0,
	FAM_NOT_FOUND,
	FAM_ACCESS,
	FAM_HANDLE,
	FAM_UNSUPPORTED,
	FAM_FULL,
	FAM_LOCK,
	FAM_BAD_NAME,
};

struct nt_entry {
	const char *name;
	uint8_t len;
	uint8_t family;
	uint32_t code;
};

/* clang-format off */
#define NT(n, fam) { #n, sizeof(#n) - 1, fam, n }
/* clang-format on */

/* NT_STATUS_OK first: it is by far the most frequent status in loadfiles. */
static const struct nt_entry nt_table[] = {
	NT(NT_STATUS_OK, FAM_NONE),
	NT(NT_STATUS_OBJECT_NAME_NOT_FOUND, FAM_NOT_FOUND),
	NT(NT_STATUS_NO_SUCH_FILE, FAM_NOT_FOUND),
	NT(NT_STATUS_OBJECT_PATH_NOT_FOUND, FAM_NOT_FOUND),
	NT(NT_STATUS_NO_MORE_FILES, FAM_NOT_FOUND),
	NT(NT_STATUS_NOT_A_DIRECTORY, FAM_NOT_FOUND),
	NT(NT_STATUS_UNSUCCESSFUL, FAM_NONE),
	NT(NT_STATUS_NOT_IMPLEMENTED, FAM_UNSUPPORTED),
	NT(NT_STATUS_INVALID_HANDLE, FAM_HANDLE),
	NT(NT_STATUS_INVALID_PARAMETER, FAM_NONE),
	NT(NT_STATUS_END_OF_FILE, FAM_NONE),
	NT(NT_STATUS_NO_MEMORY, FAM_NONE),
	NT(NT_STATUS_ACCESS_DENIED, FAM_ACCESS),
	NT(NT_STATUS_OBJECT_NAME_INVALID, FAM_BAD_NAME),
	NT(NT_STATUS_OBJECT_NAME_COLLISION, FAM_NONE),
	NT(NT_STATUS_SHARING_VIOLATION, FAM_NONE),
	NT(NT_STATUS_LOCK_NOT_GRANTED, FAM_LOCK),
	NT(NT_STATUS_DISK_FULL, FAM_FULL),
	NT(NT_STATUS_MEDIA_WRITE_PROTECTED, FAM_NONE),
	NT(NT_STATUS_FILE_IS_A_DIRECTORY, FAM_NONE),
	NT(NT_STATUS_NOT_SUPPORTED, FAM_UNSUPPORTED),
	NT(NT_STATUS_DIRECTORY_NOT_EMPTY, FAM_NONE),
	NT(NT_STATUS_TOO_MANY_OPENED_FILES, FAM_NONE),
	NT(NT_STATUS_CANNOT_DELETE, FAM_ACCESS),
	NT(NT_STATUS_FILE_CLOSED, FAM_HANDLE),
	NT(NT_STATUS_RANGE_NOT_LOCKED, FAM_NONE),
	/* not in ntstatus.h, but seen in captures */
	NT(NT_STATUS_OBJECT_NAME_EXISTS, FAM_NONE),
	NT(NT_STATUS_BUFFER_OVERFLOW, FAM_NONE),
	NT(NT_STATUS_STOPPED_ON_SYMLINK, FAM_NONE),
	NT(NT_STATUS_INVALID_INFO_CLASS, FAM_NONE),
	NT(NT_STATUS_NO_SUCH_DEVICE, FAM_NONE),
	NT(NT_STATUS_INVALID_DEVICE_REQUEST, FAM_UNSUPPORTED),
	NT(NT_STATUS_BUFFER_TOO_SMALL, FAM_NONE),
	NT(NT_STATUS_OBJECT_PATH_INVALID, FAM_BAD_NAME),
	NT(NT_STATUS_OBJECT_PATH_SYNTAX_BAD, FAM_BAD_NAME),
	NT(NT_STATUS_QUOTA_EXCEEDED, FAM_FULL),
	NT(NT_STATUS_EAS_NOT_SUPPORTED, FAM_UNSUPPORTED),
	NT(NT_STATUS_FILE_LOCK_CONFLICT, FAM_LOCK),
	NT(NT_STATUS_DELETE_PENDING, FAM_NONE),
	NT(NT_STATUS_INSUFFICIENT_RESOURCES, FAM_NONE),
	NT(NT_STATUS_NOT_SAME_DEVICE, FAM_NONE),
	NT(NT_STATUS_NAME_TOO_LONG, FAM_BAD_NAME),
	NT(NT_STATUS_INVALID_LEVEL, FAM_NONE),
	NT(NT_STATUS_FILE_TOO_LARGE, FAM_NONE),
	/* what a lost connection answers (remote backends) */
	NT(NT_STATUS_FILE_INVALID, FAM_NONE),
	NT(NT_STATUS_IO_TIMEOUT, FAM_NONE),
	NT(NT_STATUS_PIPE_BROKEN, FAM_NONE),
	NT(NT_STATUS_CONNECTION_DISCONNECTED, FAM_NONE),
	NT(NT_STATUS_CONNECTION_RESET, FAM_NONE),
	NT(NT_STATUS_CONNECTION_REFUSED, FAM_NONE),
	NT(NT_STATUS_NETWORK_UNREACHABLE, FAM_NONE),
	NT(NT_STATUS_HOST_UNREACHABLE, FAM_NONE),
	NT(NT_STATUS_CONNECTION_ABORTED, FAM_NONE),
};

#define NT_TABLE_LEN (sizeof(nt_table) / sizeof(nt_table[0]))

static const struct nt_entry *nt_by_code(uint32_t code)
{
	size_t i;

	for (i = 0; i < NT_TABLE_LEN; i++) {
		if (nt_table[i].code == code)
			return &nt_table[i];
	}
	return NULL;
}

const char *ntstatus_name(uint32_t code)
{
	const struct nt_entry *e = nt_by_code(code);

	return e != NULL ? e->name : NULL;
}

const char *ntstatus_str(uint32_t code, char buf[static 11])
{
	const char *name = ntstatus_name(code);

	if (name != NULL)
		return name;
	snprintf(buf, 11, "0x%08X", (unsigned)code);
	return buf;
}

static bool tok_is(const char *tok, size_t len, const char *word, size_t wlen)
{
	return len == wlen && strncasecmp(tok, word, len) == 0;
}


/* "0x" followed by hex digits whose value fits in 32 bits. */
static int parse_hex32(const char *tok, size_t len, uint32_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (len < 3 || tok[0] != '0' || (tok[1] != 'x' && tok[1] != 'X'))
		return -1;
	for (i = 2; i < len; i++) {
		int d = hex_digit_value(tok[i]);

		if (d < 0)
			return -1;
		v = (v << 4) | (uint64_t)d;
		if (v > UINT32_MAX)
			return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

int ntstatus_parse(const char *tok, size_t len, enum status_check *check,
		   uint32_t *code)
{
	size_t i;

	if (tok == NULL || len == 0)
		return -1;
	if (len == 1 && tok[0] == '*') {
		*check = STATUS_ANY;
		*code = 0;
		return 0;
	}
	if (tok[0] == '0') {
		if (parse_hex32(tok, len, code) != 0)
			return -1;
		*check = *code == NT_STATUS_OK ? STATUS_SUCCESS : STATUS_EXACT;
		return 0;
	}
	if (tok_is(tok, len, "SUCCESS", 7)) {
		*check = STATUS_SUCCESS;
		*code = NT_STATUS_OK;
		return 0;
	}
	if (tok_is(tok, len, "ERROR", 5)) {
		*check = STATUS_FAILURE;
		*code = 0;
		return 0;
	}
	for (i = 0; i < NT_TABLE_LEN; i++) {
		const struct nt_entry *e = &nt_table[i];

		if (e->len == len && strncasecmp(e->name, tok, len) == 0) {
			*code = e->code;
			*check = e->code == NT_STATUS_OK ? STATUS_SUCCESS :
							   STATUS_EXACT;
			return 0;
		}
	}
	return -1;
}

/*
 * The one errno -> NT status table, with the fault class of each errno
 * that is more than an answer to one request (see ntstatus.h).  A
 * linear scan: the table is short and a failure path is not hot.
 */
struct errno_entry {
	int err;
	uint32_t code;
	enum ntstatus_fault fault;
};

static const struct errno_entry errno_table[] = {
	{ ENOENT, NT_STATUS_OBJECT_NAME_NOT_FOUND, FAULT_NONE },
	{ EEXIST, NT_STATUS_OBJECT_NAME_COLLISION, FAULT_NONE },
	{ ENOTEMPTY, NT_STATUS_DIRECTORY_NOT_EMPTY, FAULT_NONE },
	{ EISDIR, NT_STATUS_FILE_IS_A_DIRECTORY, FAULT_NONE },
	{ ENOTDIR, NT_STATUS_NOT_A_DIRECTORY, FAULT_NONE },
	{ EACCES, NT_STATUS_ACCESS_DENIED, FAULT_NONE },
	{ EPERM, NT_STATUS_ACCESS_DENIED, FAULT_NONE },
	{ ENOSPC, NT_STATUS_DISK_FULL, FAULT_DISK_FULL },
	{ EDQUOT, NT_STATUS_DISK_FULL, FAULT_DISK_FULL },
	/* too large for this file, not a full disk: no fault */
	{ EFBIG, NT_STATUS_DISK_FULL, FAULT_NONE },
	{ EROFS, NT_STATUS_MEDIA_WRITE_PROTECTED, FAULT_READ_ONLY },
	{ EMFILE, NT_STATUS_TOO_MANY_OPENED_FILES, FAULT_NO_HANDLES },
	{ ENFILE, NT_STATUS_TOO_MANY_OPENED_FILES, FAULT_NO_HANDLES },
	{ EBADF, NT_STATUS_INVALID_HANDLE, FAULT_NONE },
	{ ENOSYS, NT_STATUS_NOT_SUPPORTED, FAULT_NONE },
	{ EOPNOTSUPP, NT_STATUS_NOT_SUPPORTED, FAULT_NONE },
#if defined(ENOTSUP) && ENOTSUP != EOPNOTSUPP
	{ ENOTSUP, NT_STATUS_NOT_SUPPORTED, FAULT_NONE },
#endif
	{ ENAMETOOLONG, NT_STATUS_OBJECT_NAME_INVALID, FAULT_NONE },
	{ EINVAL, NT_STATUS_INVALID_PARAMETER, FAULT_NONE },
	{ ENOMEM, NT_STATUS_NO_MEMORY, FAULT_NO_MEMORY },
	{ EBUSY, NT_STATUS_SHARING_VIOLATION, FAULT_NONE },
	{ ETXTBSY, NT_STATUS_SHARING_VIOLATION, FAULT_NONE },
	{ EXDEV, NT_STATUS_NOT_SAME_DEVICE, FAULT_NONE },
	{ ELOOP, NT_STATUS_STOPPED_ON_SYMLINK, FAULT_NONE },
	/* EIO keeps UNSUCCESSFUL, the status its messages always showed */
	{ EIO, NT_STATUS_UNSUCCESSFUL, FAULT_IO },
	/* the connection to the server or the export is gone */
	{ ECONNRESET, NT_STATUS_CONNECTION_RESET, FAULT_TRANSPORT },
	{ ECONNABORTED, NT_STATUS_CONNECTION_ABORTED, FAULT_TRANSPORT },
	{ ECONNREFUSED, NT_STATUS_CONNECTION_REFUSED, FAULT_TRANSPORT },
	{ ETIMEDOUT, NT_STATUS_IO_TIMEOUT, FAULT_TRANSPORT },
	{ EPIPE, NT_STATUS_PIPE_BROKEN, FAULT_TRANSPORT },
	{ ENOTCONN, NT_STATUS_CONNECTION_DISCONNECTED, FAULT_TRANSPORT },
	{ EHOSTUNREACH, NT_STATUS_HOST_UNREACHABLE, FAULT_TRANSPORT },
	{ ENETUNREACH, NT_STATUS_NETWORK_UNREACHABLE, FAULT_TRANSPORT },
	{ ENETDOWN, NT_STATUS_NETWORK_UNREACHABLE, FAULT_TRANSPORT },
	{ ESTALE, NT_STATUS_FILE_INVALID, FAULT_TRANSPORT },
};

#define ERRNO_TABLE_LEN (sizeof(errno_table) / sizeof(errno_table[0]))

static const struct errno_entry *errno_entry(int err)
{
	if (err < 0)
		err = -err;
	for (size_t i = 0; i < ERRNO_TABLE_LEN; i++) {
		if (errno_table[i].err == err)
			return &errno_table[i];
	}
	return NULL;
}

uint32_t ntstatus_from_errno(int err)
{
	const struct errno_entry *e;

	if (err == 0)
		return NT_STATUS_OK;
	e = errno_entry(err);
	/* EAGAIN and friends on locks are the backend's to map */
	return e != NULL ? e->code : NT_STATUS_UNSUCCESSFUL;
}

uint32_t ntstatus_failure(int err)
{
	/* a failure must never read as success */
	return err == 0 ? NT_STATUS_UNSUCCESSFUL : ntstatus_from_errno(err);
}

enum ntstatus_fault ntstatus_fault_class(int err)
{
	const struct errno_entry *e = errno_entry(err);

	return e != NULL ? e->fault : FAULT_NONE;
}

const char *ntstatus_fault_name(enum ntstatus_fault fault)
{
	static const char *const names[] = {
		[FAULT_NONE] = "none",
		[FAULT_DISK_FULL] = "disk full",
		[FAULT_READ_ONLY] = "read-only",
		[FAULT_NO_HANDLES] = "out of handles",
		[FAULT_NO_MEMORY] = "out of memory",
		[FAULT_IO] = "I/O error",
		[FAULT_TRANSPORT] = "transport lost",
	};

	return (unsigned)fault < sizeof(names) / sizeof(names[0]) ?
		       names[fault] : "unknown";
}

bool ntstatus_matches(enum status_check check, uint32_t expected,
		      uint32_t actual)
{
	const struct nt_entry *e, *a;

	switch (check) {
	case STATUS_ANY:
		return true;
	case STATUS_SUCCESS:
		return actual == NT_STATUS_OK;
	case STATUS_FAILURE:
		return actual != NT_STATUS_OK;
	case STATUS_EXACT:
		break;
	default:
		return false;
	}
	if (expected == NT_STATUS_OK || actual == NT_STATUS_OK)
		return actual == expected;
	if (actual == expected)
		return true;
	e = nt_by_code(expected);
	a = nt_by_code(actual);
	return e != NULL && a != NULL && e->family != FAM_NONE &&
	       e->family == a->family;
}
