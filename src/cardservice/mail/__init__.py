"""Mail to people (docs/mail.md): notification preferences, the mail queue the background
loop sends from over SMTP, and the sign-in link by mail."""
