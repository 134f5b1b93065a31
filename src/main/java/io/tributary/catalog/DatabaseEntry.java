package io.tributary.catalog;

/**
 * One database of a cluster as catalogs list it.
 *
 * @param name the name sessions connect with
 * @param id its number, never reused: 0 for {@code dev}, and the namespace of its keys in the store
 */
public record DatabaseEntry(String name, int id) {}
