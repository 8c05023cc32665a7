/*
 * atomic.h - the relaxed loads and stores used on the shared statistics
 * region (stats.h): each field has one writer, readers tolerate a value
 * that is a moment old, and nothing is locked.
 */
#ifndef DBENCH_ATOMIC_H
#define DBENCH_ATOMIC_H

/* Read x without tearing; no ordering against other fields. */
#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
/* Write v to x without tearing; no ordering against other fields. */
#define STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

#endif
