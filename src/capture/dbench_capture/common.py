"""Constants and helpers every part of dbench-capture shares: the errno to
NT status table (src/loadfile/ntstatus.c's), the system calls it
ignores, the loadfile op names, the error type and warn().
"""

import sys


PROG = "dbench-capture"
CLIENT_DIR = "\\clients\\client1"
WRITE_CHUNK = 1 << 20           # prepare writes files in pieces of this
PREPARE_CAP = 256 << 20         # the most data --prepare writes in a file
LOCK_TO_EOF = 1 << 62           # an fcntl lock of length 0 ("to EOF")

# errno -> NT status, exactly as the errno table of src/loadfile/ntstatus.c
# (and fileio_errno(), which agrees for every errno it special-cases).
ERRNO_NT = {
    "ENOENT": "OBJECT_NAME_NOT_FOUND",
    "EEXIST": "OBJECT_NAME_COLLISION",
    "ENOTEMPTY": "DIRECTORY_NOT_EMPTY",
    "EISDIR": "FILE_IS_A_DIRECTORY",
    "ENOTDIR": "NOT_A_DIRECTORY",
    "EACCES": "ACCESS_DENIED",
    "EPERM": "ACCESS_DENIED",
    "ENOSPC": "DISK_FULL",
    "EDQUOT": "DISK_FULL",
    "EFBIG": "DISK_FULL",
    "EROFS": "MEDIA_WRITE_PROTECTED",
    "EMFILE": "TOO_MANY_OPENED_FILES",
    "ENFILE": "TOO_MANY_OPENED_FILES",
    "EBADF": "INVALID_HANDLE",
    "ENOSYS": "NOT_SUPPORTED",
    "EOPNOTSUPP": "NOT_SUPPORTED",
    "ENOTSUP": "NOT_SUPPORTED",
    "ENAMETOOLONG": "OBJECT_NAME_INVALID",
    "EINVAL": "INVALID_PARAMETER",
    "ENOMEM": "NO_MEMORY",
    "EBUSY": "SHARING_VIOLATION",
    "ETXTBSY": "SHARING_VIOLATION",
    "EXDEV": "NOT_SAME_DEVICE",
    "ELOOP": "STOPPED_ON_SYMLINK",
    "EIO": "UNSUCCESSFUL",
    "ECONNRESET": "CONNECTION_RESET",
    "ECONNABORTED": "CONNECTION_ABORTED",
    "ECONNREFUSED": "CONNECTION_REFUSED",
    "ETIMEDOUT": "IO_TIMEOUT",
    "EPIPE": "PIPE_BROKEN",
    "ENOTCONN": "CONNECTION_DISCONNECTED",
    "EHOSTUNREACH": "HOST_UNREACHABLE",
    "ENETUNREACH": "NETWORK_UNREACHABLE",
    "ENETDOWN": "NETWORK_UNREACHABLE",
    "ESTALE": "FILE_INVALID",
}

# Failures that depend on the traced process or the machine, not on the
# files:
# the replay cannot reproduce them, so such calls are dropped.
UNREPLAYABLE_ERRNO = {"EBADF", "EINTR", "EAGAIN", "EWOULDBLOCK", "EFAULT",
                      "ERESTARTSYS", "ERESTARTNOINTR", "ERESTARTNOHAND",
                      "ERESTART_RESTARTBLOCK", "EACCES", "EPERM", "EIO",
                      "ENOSPC", "EDQUOT", "EMFILE", "ENFILE", "ENOMEM",
                      "EROFS"}

# Syscalls that never name a file the replay could touch.
IGNORED_SYSCALLS = set("""
mmap mmap2 munmap mprotect mremap madvise brk msync mlock munlock mlockall
munlockall mincore membarrier pkey_mprotect pkey_alloc pkey_free
arch_prctl set_tid_address set_robust_list get_robust_list rseq prctl
prlimit64 getrlimit setrlimit getrusage getrandom uname sysinfo times
rt_sigaction rt_sigprocmask rt_sigreturn rt_sigsuspend rt_sigtimedwait
rt_sigpending rt_sigqueueinfo rt_tgsigqueueinfo sigaltstack kill tkill
tgkill pause alarm signalfd signalfd4 restart_syscall
getpid getppid gettid getuid geteuid getgid getegid getgroups setgroups
setuid setgid setreuid setregid setresuid setresgid getresuid getresgid
setfsuid setfsgid getpgrp getpgid setpgid getsid setsid capget capset
umask personality sched_yield sched_getaffinity sched_setaffinity
sched_getparam sched_setparam sched_getscheduler sched_setscheduler
sched_get_priority_max sched_get_priority_min getpriority setpriority
futex futex_waitv get_mempolicy set_mempolicy mbind
clock_gettime clock_getres clock_nanosleep nanosleep gettimeofday time
wait4 waitid waitpid exit exit_group
pipe pipe2 socket socketpair connect bind listen accept accept4 sendto
recvfrom sendmsg recvmsg sendmmsg recvmmsg shutdown getsockname
getpeername setsockopt getsockopt
poll ppoll select pselect6 epoll_create epoll_create1 epoll_ctl epoll_wait
epoll_pwait epoll_pwait2 eventfd eventfd2 timerfd_create timerfd_settime
timerfd_gettime inotify_init inotify_init1 inotify_add_watch
inotify_rm_watch fanotify_init fanotify_mark memfd_create userfaultfd
ioctl fadvise64 readahead fallocate sync_file_range syncfs sync
getcwd getxattr lgetxattr fgetxattr listxattr llistxattr flistxattr
io_setup io_destroy io_submit io_getevents io_uring_setup io_uring_enter
io_uring_register pidfd_open pidfd_send_signal pidfd_getfd
close_range setitimer getitimer statmount listmount
""".split())

# File calls that have no loadfile op: dropped, counted (and warned about
# when they change the tree the replay rebuilds).
NO_OP_SYSCALLS = set("""
chown fchown lchown fchownat truncate truncate64 setxattr lsetxattr
fsetxattr removexattr lremovexattr fremovexattr mknod mknodat readlink
readlinkat
""".split())
CHANGES_TREE = {"truncate", "truncate64", "mknod", "mknodat"}

OP_SHORT = {
    "NTCreateX": "NTCreateX", "Close": "Close", "Rename": "Rename",
    "Unlink": "Unlink", "Deltree": "Deltree", "Rmdir": "Rmdir",
    "Mkdir": "Mkdir", "QUERY_PATH_INFORMATION": "Qpathinfo",
    "QUERY_FILE_INFORMATION": "Qfileinfo",
    "QUERY_FS_INFORMATION": "Qfsinfo", "SET_FILE_INFORMATION": "Sfileinfo",
    "FIND_FIRST": "Find", "WriteX": "WriteX", "ReadX": "ReadX",
    "LockX": "LockX", "UnlockX": "UnlockX", "Flush": "Flush",
}


class CaptureError(Exception):
    """Bad input: the message names the file and line."""


def warn(msg):
    print("%s: %s" % (PROG, msg), file=sys.stderr)


def nt_status(err, overrides=None):
    """The expected-status field for a call that failed with errno err."""
    if err is None:
        return "NT_STATUS_OK"
    if overrides and err in overrides:
        return "NT_STATUS_" + overrides[err]
    return "NT_STATUS_" + ERRNO_NT.get(err, "UNSUCCESSFUL")
