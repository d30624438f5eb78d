"""Key backends beyond the local one (`cardservice.security`): a PKCS#11 token."""
