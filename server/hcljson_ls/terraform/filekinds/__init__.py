"""The other file kinds: variable definitions (`tfvars`), tests (`testfile`, `testfile_references`),
mock data (`mockfile`), queries (`queryfile`) and CDKTF output (`cdktf`)."""
