/** The command builders, kept beside the domain they build for; here for the other packages' tests. */
export * from '@shiftcover/domain/testing';
