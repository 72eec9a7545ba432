"""The career tools' shared door (/jd, /notes, /apps, /debrief): their commands, buttons, sent files and records."""
