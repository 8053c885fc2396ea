"""convlab's autograder: builds each submission against a clean copy of the kit, runs hidden
cases in a sandbox, checks the results in a separate trusted process, times the submission
against the reference solution on the same GPU, runs compute-sanitizer, and reports."""
