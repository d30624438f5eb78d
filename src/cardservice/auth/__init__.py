"""Bearer tokens, MFA codes and the dependencies that check them."""
